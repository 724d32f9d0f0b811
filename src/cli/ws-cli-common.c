/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ws-atomic-file.h"
#include "ws-cli.h"
#include "ws-findings.h"
#include "ws-format.h"
#include "ws-gpu-busy.h"
#include "ws-reader-error.h"
#include "ws-run-derive.h"
#include "ws-steps.h"
#include "ws-digest-loader.h"
#include "ws-file.h"
#include "ws-input.h"
#include "ws-ncu-match.h"
#include "ws-ncu-reader.h"
#include "ws-ranks-loader.h"
#include "ws-run-loader.h"
#include "ws-run-slice.h"

/* Parses the options of a subcommand; on a usage error prints one line and
 * the hint to --help.  The remaining arguments are the files. */
gboolean
ws_cli_parse (GOptionContext *context, int *argc, char ***argv, int min_args, int max_args)
{
  g_autoptr (GError) error = NULL;
  int n_files;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      ws_cli_error ((*argv)[0], "%s", error->message);
      g_printerr (_ ("Try “%s --help”.\n"), (*argv)[0]);
      return FALSE;
    }
  n_files = *argc - 1;
  if (n_files < min_args || (max_args >= 0 && n_files > max_args))
    {
      if (n_files < min_args)
        ws_cli_error ((*argv)[0], _ ("missing file argument"));
      else
        ws_cli_error ((*argv)[0], _ ("too many arguments"));
      g_printerr (_ ("Try “%s --help”.\n"), (*argv)[0]);
      return FALSE;
    }
  return TRUE;
}

/* Whether @output would be read as part of the folder @dir: a file of a
 * kind Warpscope reads, somewhere inside it. */
static gboolean
read_from_folder (const char *output, const char *dir)
{
  g_autofree char *real_output = realpath (output, NULL);
  g_autofree char *real_dir = realpath (dir, NULL);
  g_autofree char *prefix = NULL;
  WsInputKind kind;

  if (real_output == NULL || real_dir == NULL)
    return FALSE;
  prefix = g_str_has_suffix (real_dir, G_DIR_SEPARATOR_S)
             ? g_strdup (real_dir)
             : g_strconcat (real_dir, G_DIR_SEPARATOR_S, NULL);
  if (!g_str_has_prefix (real_output, prefix))
    return FALSE;
  kind = ws_input_detect (output, NULL);
  return kind != WS_INPUT_UNKNOWN && kind != WS_INPUT_FOLDER;
}

/**
 * ws_cli_check_output:
 * @output: (nullable): a file a command writes; %NULL and "-" (standard
 *   output) pass
 * @inputs: (array zero-terminated=1): what the command reads: files,
 *   folders, or `A,B` sides
 *
 * Refuses an output that is one of the inputs — the same file by device
 * and inode, whatever the names and links — or a file a folder given as
 * input would be read from: writing it would destroy what is read.
 */
gboolean
ws_cli_check_output (const char *output, const char *const *inputs, GError **error)
{
  if (output == NULL || g_str_equal (output, "-") || !g_file_test (output, G_FILE_TEST_EXISTS))
    return TRUE;
  for (guint i = 0; inputs != NULL && inputs[i] != NULL; i++)
    {
      g_auto (GStrv) sides = ws_input_split_side (inputs[i]);

      for (guint s = 0; sides[s] != NULL; s++)
        if (ws_file_same (output, sides[s]) ||
            (g_file_test (sides[s], G_FILE_TEST_IS_DIR) && read_from_folder (output, sides[s])))
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                         _ ("%s: the output is one of the inputs; choose another file"), output);
            return FALSE;
          }
    }
  return TRUE;
}

/**
 * ws_cli_parse_outputs:
 * @first_output: the variable of an option naming a file the command
 *   writes, then more, then %NULL
 *
 * ws_cli_parse(), then ws_cli_check_output() of each output against the
 * files given: every command that writes files refuses to overwrite what
 * it reads, with one line naming the file.
 */
gboolean
ws_cli_parse_outputs (GOptionContext *context, int *argc, char ***argv, int min_args, int max_args,
                      char **first_output, ...)
{
  va_list args;
  gboolean ok;

  va_start (args, first_output);
  ok = ws_cli_parse_outputs_valist (context, argc, argv, min_args, max_args, first_output, args);
  va_end (args);
  return ok;
}

/* A file a command writes goes into a folder that exists: none is made
 * for it (a Markdown report and a chart alike), and the refusal comes
 * before any work. */
static gboolean
check_output_folder (const char *output, GError **error)
{
  g_autofree char *folder = NULL;

  if (output == NULL || g_str_equal (output, "-"))
    return TRUE;
  folder = g_path_get_dirname (output);
  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _ ("%s: the folder %s does not exist"),
                   output, folder);
      return FALSE;
    }
  return TRUE;
}

/* ws_cli_parse_outputs() with the outputs after @first_output in @args. */
gboolean
ws_cli_parse_outputs_valist (GOptionContext *context, int *argc, char ***argv, int min_args,
                             int max_args, char **first_output, va_list args)
{
  if (!ws_cli_parse (context, argc, argv, min_args, max_args))
    return FALSE;
  for (char **output = first_output; output != NULL; output = va_arg (args, char **))
    {
      g_autoptr (GError) error = NULL;

      if (!ws_cli_check_output (*output, (const char *const *) *argv + 1, &error) ||
          !check_output_folder (*output, &error))
        {
          g_printerr ("warpscope-cli: %s\n", error->message);
          return FALSE;
        }
    }
  return TRUE;
}

/* Prints the error (which names the file) as one line; returns the exit status. */
int
ws_cli_fail (GError *error)
{
  g_autofree char *line = g_strdup (error->message);

  g_strdelimit (line, "\n\r", ' ');
  g_printerr ("warpscope-cli: %s\n", line);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return WS_EXIT_FAILED;
  return WS_EXIT_BAD_INPUT;
}

/* A load through the loader's asynchronous API, waited for on this
 * thread's main context. */
typedef struct
{
  gboolean done;
  WsRun *run;
  GError *error;
} CliLoad;

/* On a terminal, one line that the next update overwrites. */
static void
print_progress (double fraction, const char *what, gpointer data)
{
  ws_cli_clear_line ();
  g_printerr ("%s %.0f%%", what, fraction * 100);
}

/* --rank N,M: which ranks of a job a command reads; NULL for all. */
static char *rank_filter;

/* The files given are the ranks of one job, whatever their names. */
static gboolean force_job;

/* For `ranks` and `render --view ranks`: every export given is a rank. */
void
ws_cli_load_as_job (gboolean job)
{
  force_job = job;
}

/* `info` lists a run's warnings in its report: not on standard error too. */
static gboolean warnings_in_report;

void
ws_cli_warnings_in_report (void)
{
  warnings_in_report = TRUE;
}

/* What the load left out or set right (rows with impossible times, a
 * second report of a kind, an export that changed since its digest):
 * said once, on standard error, whatever the command, naming the file
 * when the warning does not; kept until the command ends
 * (ws_cli_say_warnings()), since a command refused as bad input says one
 * line, its refusal. */
static GPtrArray *pending_warnings;

static void
print_warnings (const WsRun *run, const char *first)
{
  const char *file = run->prov.files->len == 1 ? g_ptr_array_index (run->prov.files, 0) : first;

  if (warnings_in_report)
    return;
  if (pending_warnings == NULL)
    pending_warnings = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < run->prov.warnings->len; i++)
    {
      const char *warning = g_ptr_array_index (run->prov.warnings, i);

      if (run->digest != NULL || file == NULL || g_str_has_prefix (warning, file))
        g_ptr_array_add (pending_warnings, g_strdup_printf ("warpscope-cli: %s\n", warning));
      else
        g_ptr_array_add (pending_warnings,
                         g_strdup_printf ("warpscope-cli: %s: %s\n", file, warning));
    }
  /* A CPU profile's own (frame names shortened, …). */
  for (guint p = 0; run->cpu_profiles != NULL && p < run->cpu_profiles->len; p++)
    {
      const WsCpuProfile *profile = g_ptr_array_index (run->cpu_profiles, p);

      for (guint i = 0; i < profile->warnings->len; i++)
        g_ptr_array_add (pending_warnings,
                         g_strdup_printf ("warpscope-cli: %s: %s\n", profile->path,
                                          (const char *) g_ptr_array_index (profile->warnings, i)));
    }
}

/**
 * ws_cli_say_warnings:
 * @status: the command's exit status
 *
 * Says the warnings of the runs the command loaded, once each, unless the
 * command was refused as bad input (its one line is its refusal).
 */
void
ws_cli_say_warnings (int status)
{
  if (pending_warnings == NULL)
    return;
  if (status != WS_EXIT_BAD_INPUT)
    for (guint i = 0; i < pending_warnings->len; i++)
      g_printerr ("%s", (const char *) g_ptr_array_index (pending_warnings, i));
  g_clear_pointer (&pending_warnings, g_ptr_array_unref);
}

static const GOptionEntry rank_entries[] = {
  { "rank", 0, 0, G_OPTION_ARG_STRING, &rank_filter,
    N_ ("Only these ranks of a job: 3, 0,2 or 0-3 (default: all, merged)"), N_ ("N,M") },
  { NULL },
};

/* Every command that reads a run takes --rank. */
void
ws_cli_add_rank_option (GOptionContext *context)
{
  g_option_context_add_main_entries (context, rank_entries, GETTEXT_PACKAGE);
}

/* Whether --rank was given: a run is then read with every column, since
 * a rank is told by its streams and threads. */
gboolean
ws_cli_rank_filter_given (void)
{
  return rank_filter != NULL;
}

/* "0-2,5" -> 0, 1, 2, 5; FALSE for anything else. */
static gboolean
parse_ranks (const char *text, GArray *numbers)
{
  g_auto (GStrv) parts = g_strsplit (text, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *part = g_strstrip (parts[i]);
      guint64 lo, hi;
      char *end;

      if (!g_ascii_isdigit (*part))
        return FALSE;
      lo = g_ascii_strtoull (part, &end, 10);
      hi = lo;
      if (*end == '-')
        {
          if (!g_ascii_isdigit (end[1]))
            return FALSE;
          hi = g_ascii_strtoull (end + 1, &end, 10);
        }
      if (*end != '\0' || hi < lo || hi - lo > 1000000 || hi > G_MAXUINT)
        return FALSE;
      for (guint64 r = lo; r <= hi; r++)
        {
          guint rank = (guint) r;

          g_array_append_val (numbers, rank);
        }
    }
  return numbers->len > 0;
}

/* The ranks --rank names, as a run of their own. */
static WsRun *
apply_rank_filter (WsRun *run, const char *file, GError **error)
{
  g_autoptr (GArray) numbers = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) pids = g_array_new (FALSE, FALSE, sizeof (guint32));
  WsRun *selected;

  if (!parse_ranks (rank_filter, numbers))
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   _ ("--rank %s: expected rank numbers such as 3, 0,2 or 0-3"), rank_filter);
      return NULL;
    }
  for (guint i = 0; i < numbers->len; i++)
    {
      guint number = g_array_index (numbers, guint, i);
      gint index = ws_ranks_index_of (run->ranks, number);

      /* A digest keeps each rank's summaries and findings: the ranks asked
       * for merge again from them. */
      if (run->digest != NULL && index >= 0)
        continue;

      if (run->ranks == NULL && number == 0)
        return ws_run_ref (run);
      if (index < 0)
        {
          g_autofree char *have =
            run->ranks == NULL
              ? g_strdup (_ ("it is one process: rank 0"))
              : g_strdup_printf (_ ("its ranks are %u to %u"), ws_ranks_get (run->ranks, 0)->rank,
                                 ws_ranks_get (run->ranks, ws_ranks_get_n (run->ranks) - 1)->rank);

          /* TRANSLATORS: a file, a rank number, then which ranks the run has */
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA, _ ("%s: no rank %u (%s)"),
                       file, number, have);
          return NULL;
        }
      g_array_append_val (pids, ws_ranks_get (run->ranks, index)->pid);
    }
  if (run->digest != NULL)
    return ws_digest_loader_run_new (run->digest, (const guint *) (gpointer) numbers->data,
                                     numbers->len, 0);
  selected = ws_run_derive_pids (run, (const guint32 *) pids->data, pids->len);
  return selected;
}

/* A single export stays a run of its own: its processes are its ranks;
 * exports of several launches (the targets of a capture) are no job. */
static gboolean
several_exports (const char *const *paths)
{
  g_autoptr (GPtrArray) exports = ws_ranks_loader_expand (paths, NULL);
  g_autoptr (GPtrArray) launches = ws_ranks_loader_launches (paths);

  return exports != NULL && exports->len > 1 && launches->len == 1;
}

static void
run_loaded_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  CliLoad *load = data;

  load->run = ws_run_load_finish (result, &load->error);
  load->done = TRUE;
}

static void
job_loaded_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  CliLoad *load = data;

  load->run = ws_ranks_loader_load_finish (result, &load->error);
  load->done = TRUE;
}

static gboolean
interrupt_cb (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_CONTINUE;
}

/* The loader reads on its worker thread while this one waits for SIGINT,
 * SIGTERM and SIGHUP, and prints the progress it relays. */
static WsRun *
load_exports (char **paths, WsLoadFlags flags, GError **error)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  gboolean show_progress = isatty (STDERR_FILENO);
  WsProgressFunc progress = show_progress ? print_progress : NULL;
  CliLoad load = { FALSE, NULL, NULL };
  guint signals[3];

  signals[0] = g_unix_signal_add (SIGINT, interrupt_cb, cancellable);
  signals[1] = g_unix_signal_add (SIGTERM, interrupt_cb, cancellable);
  signals[2] = g_unix_signal_add (SIGHUP, interrupt_cb, cancellable);
  if ((force_job && several_exports ((const char *const *) paths)) ||
      ws_ranks_loader_is_job ((const char *const *) paths, TRUE))
    ws_ranks_loader_load_async ((const char *const *) paths, flags, cancellable, progress, NULL,
                                NULL, NULL, job_loaded_cb, &load);
  else
    ws_run_load_async ((const char *const *) paths, flags, cancellable, progress, NULL, NULL,
                       run_loaded_cb, &load);
  while (!load.done)
    g_main_context_iteration (NULL, TRUE);
  for (gsize i = 0; i < G_N_ELEMENTS (signals); i++)
    g_source_remove (signals[i]);
  if (show_progress)
    ws_cli_clear_line ();
  /* A task cancelled says so without the file: the line names it. */
  if (load.run == NULL && g_error_matches (load.error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_error (&load.error);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _ ("%s: loading was cancelled"),
                   paths[0]);
    }
  else if (load.run == NULL)
    g_propagate_error (error, load.error);
  return load.run;
}

/**
 * ws_cli_load:
 *
 * Loads through the loader: ws_run_load_async(), or
 * ws_ranks_loader_load_async() for a job, read on the loader's worker
 * thread while this one waits for SIGINT, SIGTERM and SIGHUP (a digest
 * opens at once with ws_digest_loader_open()): converting a report runs nsys or ncu in a process group of its
 * own, which the terminal's Ctrl+C does not reach, so the signal cancels
 * the load, which ends the tool and removes what it wrote.  On a terminal,
 * the progress shows on standard error.  The exports of a job's ranks
 * (several given together that their names number, a folder or a glob of
 * them) load as one run of N ranks; --rank keeps some of them.
 *
 * Returns: (transfer full): the run of @paths, or %NULL with @error set.
 */
WsRun *
ws_cli_load (char **paths, WsLoadFlags flags, GError **error)
{
  g_autoptr (GStrvBuilder) each = g_strv_builder_new ();
  g_auto (GStrv) files = NULL;
  WsRun *run;

  /* `run.sqlite,run_ncu_raw.csv` is the two files, as `--help` says,
   * unless a file of that very name exists. */
  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_auto (GStrv) sides = ws_input_split_side (paths[i]);

      g_strv_builder_addv (each, (const char **) sides);
    }
  files = g_strv_builder_end (each);

  /* A digest: its exports, where they can be found, are checked whole. */
  if (files[0] != NULL && files[1] == NULL && ws_input_detect (files[0], NULL) == WS_INPUT_DIGEST)
    run = ws_digest_loader_open (
      files[0], WS_DIGEST_CHECK_STAT | WS_DIGEST_CHECK_CHECKSUM,
      rank_filter != NULL ? WS_DIGEST_READ_RANK_SUMMARIES : WS_DIGEST_READ_DEFAULT, NULL, error);
  else
    run = load_exports (files, flags, error);
  if (run != NULL && rank_filter != NULL)
    {
      WsRun *selected = apply_rank_filter (run, files[0], error);

      ws_run_unref (run);
      run = selected;
    }
  /* What the load left out, and what a digest says of itself: exports
   * that changed, files it lacks. */
  if (run != NULL)
    print_warnings (run, files[0]);
  return run;
}

/* Writes @data to @path, or to standard output when @path is NULL or "-".
 * On a terminal, every control character but line breaks and tabs shows
 * as an escape (ws_format_escape_terminal()): a CSV or a collapsed stack
 * keeps a name from a file exact in a file or a pipe, never on a screen. */
gboolean
ws_cli_write (const char *path, const char *data, gsize len, GError **error)
{
  if (path == NULL || g_str_equal (path, "-"))
    {
      g_autofree char *visible = NULL;

      if (isatty (STDOUT_FILENO) && !ws_format_is_terminal_safe (data, TRUE))
        {
          visible = ws_format_escape_terminal (data);
          data = visible;
          len = strlen (visible);
        }
      if (fwrite (data, 1, len, stdout) != len || fflush (stdout) != 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _ ("cannot write to standard output"));
          return FALSE;
        }
      return TRUE;
    }
  return ws_atomic_file_save (path, data, len, WS_ATOMIC_FILE_DEFAULT, error);
}

/**
 * ws_cli_clear_line:
 *
 * Takes the cursor back to the start of standard error's line and clears
 * it, for a progress line rewritten in place: the one escape sequence the
 * CLI writes on purpose, written past the escaping of messages.
 */
void
ws_cli_clear_line (void)
{
  fputs ("\r\033[K", stderr);
  fflush (stderr);
}

/**
 * ws_cli_write_report:
 * @exact: a data format (CSV, JSON), whose strings stay exact off a terminal
 *
 * Writes a command's report to standard output.  A report of text (a
 * table, Markdown, findings) shows the strings it holds from files with
 * their control characters escaped, wherever it goes; a data format is
 * escaped on a terminal alone (ws_cli_write()).
 */
gboolean
ws_cli_write_report (const GString *out, gboolean exact, GError **error)
{
  g_autofree char *visible = NULL;

  if (exact || ws_format_is_terminal_safe (out->str, TRUE))
    return ws_cli_write (NULL, out->str, out->len, error);
  visible = ws_format_escape_terminal (out->str);
  return ws_cli_write (NULL, visible, strlen (visible), error);
}

/**
 * ws_cli_load_ncu:
 * @paths: ncu CSV exports, nsys SQLite exports, or capture folders
 *
 * A run with ncu results: the nsys export's, matched to its kernels, when
 * one is given (or found in a folder), or else a run of the ncu results
 * alone.  What the loader left out (a CSV of only ncu errors in a folder)
 * goes to stderr.
 *
 * Returns: (transfer full): the run, or %NULL with @error set
 */
WsRun *
ws_cli_load_ncu (char **paths, GError **error)
{
  g_autoptr (WsRun) run = ws_cli_load (paths, WS_LOAD_ALL, error);

  if (run == NULL)
    return NULL;
  if (run->ncu == NULL)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                   _ ("%s: no Nsight Compute CSV export found"), paths[0]);
      return NULL;
    }
  for (guint i = 0; i < run->prov.warnings->len; i++)
    g_printerr ("warpscope-cli: %s\n", (const char *) g_ptr_array_index (run->prov.warnings, i));
  return g_steal_pointer (&run);
}

/* Replaces the setting *@field by an option's @value. */
void
ws_cli_replace_string (char **field, const char *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

/**
 * ws_cli_capture_settings:
 * @out: (nullable): --out
 * @nsys: (nullable): --nsys
 * @ncu: (nullable): --ncu
 * @ncu_set: (nullable): --ncu-set
 *
 * The settings of a capture (and of the doctor, which checks for one):
 * the workflow's environment variables, which the options given override.
 *
 * Returns: (transfer full): the settings, or %NULL with @error set when a
 *   variable is wrong
 */
WsCaptureSettings *
ws_cli_capture_settings (const char *out, const char *nsys, const char *ncu, const char *ncu_set,
                         GError **error)
{
  g_autoptr (WsCaptureSettings) settings = ws_capture_settings_new ();
  g_auto (GStrv) env = g_get_environ ();

  if (!ws_capture_settings_apply_environment (settings, (const char *const *) env, NULL, error))
    return NULL;
  if (out != NULL)
    ws_cli_replace_string (&settings->output_dir, out);
  if (nsys != NULL)
    ws_cli_replace_string (&settings->nsys_path, nsys);
  if (ncu != NULL)
    ws_cli_replace_string (&settings->ncu_path, ncu);
  if (ncu_set != NULL)
    ws_cli_replace_string (&settings->ncu_set, ncu_set);
  return g_steal_pointer (&settings);
}

/**
 * ws_cli_steady:
 * @steps: (out) (optional) (transfer full): the run's steps, when it has a
 *   steady state
 *
 * Returns: (transfer full): the steady state of @run (ws-steps.h), or
 * @run itself when it has no steps past its warm-up
 */
WsRun *
ws_cli_steady (WsRun *run, WsSteps **steps)
{
  g_autoptr (WsSteps) found = ws_steps_compute (run, NULL);
  WsRun *steady;

  if (steps != NULL)
    *steps = NULL;
  if (!ws_steps_has_steady_state (found))
    return ws_run_ref (run);
  steady = ws_steps_steady_run (run, found);
  if (steps != NULL)
    *steps = g_steal_pointer (&found);
  return steady;
}

/**
 * ws_cli_use_steady:
 * @run: (inout) (transfer full): the run; replaced by its steady state
 * @file: the file, for the message
 *
 * `--steady`: the command works on the steady state.  Says which steps it
 * holds on standard error (standard output stays the command's own); a run
 * without steps past its warm-up is an error.
 *
 * Returns: whether @run has a steady state
 */
gboolean
ws_cli_use_steady (WsRun **run, const char *file)
{
  g_autoptr (WsSteps) steps = NULL;
  WsRun *steady = ws_cli_steady (*run, &steps);
  g_autofree char *which = NULL;

  if (steps == NULL)
    {
      ws_run_unref (steady);
      g_printerr (_ ("warpscope-cli: %s: --steady: no steady state: no NVTX ranges repeat with a "
                     "counter past the warm-up (see warpscope-cli steps)\n"),
                  file);
      return FALSE;
    }
  which = ws_steps_describe_steady (steps);
  g_printerr (_ ("Steady state: %s\n"), which);
  ws_run_unref (*run);
  *run = steady;
  return TRUE;
}
