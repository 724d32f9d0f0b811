/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "ws-cli.h"
#include "ws-format.h"
#include "ws-uninstalled.h"

typedef struct
{
  const char *name;
  WsCliCommand run;
  const char *summary;
} Command;

/* In warpscope-cli, the commands that draw (Cairo, Pango) are run by
 * warpscope-cli-full (ws_cli_run_full): NULL here. */
#ifdef WS_CLI_LEAN
#define FULL(run) NULL
#else
#define FULL(run) run
#endif

/* clang-format off */
static const Command commands[] = {
  { "info", ws_cli_info, N_("Describe a run: file kind, versions, GPUs, event counts") },
  { "stats", ws_cli_stats, N_("Summaries as nsys stats prints them (kernels, NVTX, API, memory)") },
  { "ranks", ws_cli_ranks, N_("The ranks of a job, one row each, and the straggler the others wait for") },
  { "digest", ws_cli_digest, N_("Digest a job's exports into one small file the window opens at once (threads or MPI)") },
  { "steps", ws_cli_steps, N_("Steps of a training or inference loop, their GPU time and the steady state") },
  { "critical-path", ws_cli_critical_path, N_("What decides the step time across ranks, and what a change would buy (what-if)") },
  { "gauges", FULL (ws_cli_gauges), N_("Gauges and bottleneck verdict of each kernel profiled by Nsight Compute") },
  { "render", FULL (ws_cli_render), N_("Draw a chart to a PNG, SVG or PDF file") },
  { "compare", ws_cli_compare, N_("Compare two runs kernel by kernel") },
  { "gate", ws_cli_gate, N_("Fail when a kernel, a range or the step went over its budget, outside the noise (CI)") },
  { "rollup", FULL (ws_cli_rollup), N_("GPU time of each NVTX range by bottleneck: compute, memory, latency, …") },
  { "diagnose", ws_cli_diagnose, N_("Findings: allocation in loops, small transfers, syncs, launch overhead, …") },
  { "export", FULL (ws_cli_export), N_("Write a run as a Chrome trace, a Markdown report or nsys stats CSVs") },
  { "capture", ws_cli_capture, N_("Capture the targets of a targets.tsv file with nsys and ncu") },
  { "flame", FULL (ws_cli_flame), N_("A CPU profile (nsys samples, py-spy, speedscope, cProfile) as a flame graph or collapsed stacks") },
  { "doctor", ws_cli_doctor, N_("Check this machine before a capture, with the fix for each problem") },
  { "fetch", ws_cli_fetch, N_("Copy what a capture on another machine left there") },
};
/* clang-format on */

static void
print_usage (void)
{
  g_print ("%s\n  warpscope-cli COMMAND [OPTION…] FILE…\n\n", _ ("Usage:"));
  g_print (
    "%s\n",
    _ ("Everything the Warpscope window computes or draws, for terminals, GPU servers and CI."));
  g_print ("\n%s\n", _ ("Commands:"));
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    g_print ("  %-13s %s\n", commands[i].name, _ (commands[i].summary));
  g_print ("\n%s\n", _ ("Run “warpscope-cli COMMAND --help” for the options of a command."));
  g_print ("%s\n", _ ("Exit status: 0 success, 1 a step failed, 2 bad input."));
}

/* warpscope-cli: whether a digest command line asks for MPI, which warpscope-cli does not
 * link: GOption takes --mpi only whole, and not after "--". */
#ifdef WS_CLI_LEAN
static gboolean
uses_mpi (int argc, char **argv)
{
  for (int i = 2; i < argc && !g_str_equal (argv[i], "--"); i++)
    if (g_str_equal (argv[i], "--mpi"))
      return TRUE;
  return FALSE;
}
#endif

/* Every message (g_print, g_printerr) passes the one escaping for a
 * terminal: a target's name, a rank's path or a frame's name read from a
 * file cannot clear the screen, set the title or ring the bell. */
static void
print_visible (const char *text)
{
  g_autofree char *visible = ws_format_escape_terminal (text);

  fputs (visible, stdout);
  fflush (stdout);
}

static void
printerr_visible (const char *text)
{
  g_autofree char *visible = ws_format_escape_terminal (text);

  fputs (visible, stderr);
  fflush (stderr);
}

int
main (int argc, char **argv)
{

  ws_i18n_init ();
  g_set_prgname ("warpscope-cli");
  g_set_print_handler (print_visible);
  g_set_printerr_handler (printerr_visible);

  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") ||
      g_str_equal (argv[1], "help"))
    {
      print_usage ();
      return argc < 2 ? WS_EXIT_BAD_INPUT : WS_EXIT_OK;
    }
  if (g_str_equal (argv[1], "--version"))
    {
      g_print ("warpscope-cli %s\n", PACKAGE_VERSION);
      return WS_EXIT_OK;
    }

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      {
#ifdef WS_CLI_LEAN
        if (commands[i].run == NULL || (commands[i].run == ws_cli_digest && uses_mpi (argc, argv)))
          return ws_cli_run_full (argv);
#endif
        /* The subcommand sees itself as argv[0]. */
        g_autofree char *prgname = g_strdup_printf ("warpscope-cli %s", commands[i].name);
        int status;

        argv[1] = prgname;
        status = commands[i].run (argc - 1, argv + 1);
        ws_cli_say_warnings (status);
        return status;
      }

  g_printerr (_ ("warpscope-cli: unknown command “%s”\n"), argv[1]);
  g_printerr (_ ("Try “warpscope-cli --help”.\n"));
  return WS_EXIT_BAD_INPUT;
}
