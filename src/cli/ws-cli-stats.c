/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-cli.h"
#include "ws-nvtx-kern-sum.h"
#include "ws-nvtx-report.h"
#include "ws-stats.h"
#include "ws-summary-table.h"

/* Reports beyond the five summaries a run keeps: NVTX ranges on the GPU. */
enum
{
  REPORT_NVTX_GPU_PROJ = WS_N_SUMMARY_KINDS,
  REPORT_NVTX_KERN,
};

static const char *const report_titles[] = {
  N_ ("CUDA GPU Kernel Summary"),
  N_ ("NVTX Range Summary"),
  N_ ("CUDA API Summary"),
  N_ ("CUDA GPU MemOps Summary (by Time)"),
  N_ ("CUDA GPU MemOps Summary (by Size)"),
  N_ ("OS Runtime Summary"),
  N_ ("NVTX GPU Projection Summary"),
  N_ ("NVTX Range Kernel Summary"),
};

static const char *
report_name (guint kind)
{
  if (kind == REPORT_NVTX_GPU_PROJ)
    return "nvtx_gpu_proj_sum";
  if (kind == REPORT_NVTX_KERN)
    return "nvtx_kern_sum";
  return ws_summary_kind_to_string ((WsSummaryKind) kind);
}

/* What nsys says when a report's tables are missing, or NULL. */
static const char *
nvtx_gpu_missing (const WsRun *run, guint kind)
{
  if (!run->has_nvtx_table && run->nvtx.n == 0)
    return "NV Tools Extension (NVTX) data";
  if (kind == REPORT_NVTX_KERN && run->kernels.n == 0)
    return "CUDA kernel data";
  if (!run->has_runtime_table && run->api.n == 0)
    return "CUDA API data";
  return NULL;
}

static void
write_nvtx_gpu_report (const WsRun *run, guint kind, WsNameForm form, WsOutputFormat format,
                       const char *file, WsNvtxGpu **nvtx_gpu, GString *out)
{
  const char *missing = nvtx_gpu_missing (run, kind);

  if (missing != NULL)
    {
      g_autofree char *line = g_strdup_printf ("SKIPPED: %s does not contain %s.\n", file, missing);

      if (format == WS_FORMAT_CSV)
        g_printerr ("%s", line);
      else
        g_string_append (out, line);
      return;
    }
  if (*nvtx_gpu == NULL)
    *nvtx_gpu = ws_nvtx_gpu_new_projected (run);
  if (kind == REPORT_NVTX_GPU_PROJ)
    {
      g_autoptr (GArray) rows = ws_nvtx_gpu_proj_sum (*nvtx_gpu);

      ws_nvtx_proj_sum_write (rows, format, out);
    }
  else
    {
      g_autoptr (GArray) rows = ws_nvtx_kern_sum (*nvtx_gpu, form);

      ws_nvtx_kern_sum_write (run, rows, format, out);
    }
  if (format == WS_FORMAT_TABLE)
    g_string_append_c (out, '\n');
}

static WsLoadFlags
flags_for (guint kind)
{
  switch (kind)
    {
      /* Tables whose summaries no report may ask for: each report computes
       * its own when written, none at load.  A summary report alone keeps
       * the load's, computed on the loader's thread beside the events
       * (1.4 MB less at the peak for nvtx_sum). */
      case REPORT_NVTX_GPU_PROJ:
      case REPORT_NVTX_KERN:
        return WS_LOAD_KERNELS | WS_LOAD_MEMOPS | WS_LOAD_API | WS_LOAD_NVTX | WS_LOAD_LAUNCHES |
               WS_LOAD_NO_SUMMARIES;
      case WS_SUMMARY_KERN_SUM:
        return WS_LOAD_KERNELS;
      case WS_SUMMARY_NVTX_SUM:
        return WS_LOAD_NVTX;
      case WS_SUMMARY_API_SUM:
        return WS_LOAD_API;
      case WS_SUMMARY_MEM_TIME_SUM:
      case WS_SUMMARY_MEM_SIZE_SUM:
        return WS_LOAD_MEMOPS;
      case WS_SUMMARY_OSRT_SUM:
        return WS_LOAD_OSRT;
      default:
        return WS_LOAD_ALL;
    }
}

/* The reports --report names, in @kinds, and what the run must be read
 * with for them; FALSE after printing a name that is none. */
static gboolean
parse_reports (const char *report_str, GArray *kinds, WsLoadFlags *flags)
{
  g_auto (GStrv) reports =
    g_strsplit (report_str != NULL ? report_str : "cuda_gpu_kern_sum", ",", -1);
  gboolean kernel_names = FALSE, api_names = FALSE;

  for (guint i = 0; reports[i] != NULL; i++)
    {
      WsSummaryKind summary_kind;
      guint kind;

      if (ws_summary_kind_from_string (g_strstrip (reports[i]), &summary_kind))
        kind = summary_kind;
      else if (g_str_equal (reports[i], "nvtx_gpu_proj_sum"))
        kind = REPORT_NVTX_GPU_PROJ;
      else if (g_str_equal (reports[i], "nvtx_kern_sum"))
        kind = REPORT_NVTX_KERN;
      else
        {
          ws_cli_error ("stats", _ ("unknown report “%s”"), reports[i]);
          return FALSE;
        }
      g_array_append_val (kinds, kind);
      *flags |= flags_for (kind);
      kernel_names = kernel_names || kind == WS_SUMMARY_KERN_SUM || kind == REPORT_NVTX_KERN;
      api_names = api_names || kind == WS_SUMMARY_API_SUM;
    }
  /* A lean load reads no names that no report prints. */
  if (!kernel_names)
    *flags |= WS_LOAD_NO_KERNEL_NAMES;
  if (!api_names)
    *flags |= WS_LOAD_NO_API_NAMES;
  return TRUE;
}

/* Report @kind of @run, as nsys stats prints it (a missing one is a
 * SKIPPED line, as there). */
static void
write_report (WsRun *run, guint kind, WsOutputFormat format, WsNameForm form, gboolean group_ops,
              const char *file, WsNvtxGpu **nvtx_gpu, GString *out)
{
  g_autoptr (WsSummary) summary = NULL;

  if (kind >= WS_N_SUMMARY_KINDS)
    {
      write_nvtx_gpu_report (run, kind, form, format, file, nvtx_gpu, out);
      return;
    }
  if (!ws_run_has_summary_data (run, kind))
    {
      /* As nsys: not an error, the report has nothing to summarise.
       * nvprof's metric runs replay each kernel: no times to sum. */
      g_autofree char *line =
        run->ncu != NULL && run->ncu->nvprof && kind == WS_SUMMARY_KERN_SUM
          ? g_strdup_printf ("SKIPPED: %s holds nvprof metrics of %u kernels, not their times "
                             "(metric runs replay each kernel); `warpscope-cli gauges` shows "
                             "them.\n",
                             file, ws_ncu_results_n_launches (run->ncu))
          : g_strdup_printf ("SKIPPED: %s does not contain %s.\n", file,
                             ws_summary_kind_missing_data (kind));

      if (format == WS_FORMAT_CSV)
        g_printerr ("%s", line);
      else
        g_string_append (out, line);
      return;
    }

  summary = kind == WS_SUMMARY_NVTX_SUM && group_ops && ws_run_has_summary_events (run, kind)
              ? ws_stats_compute_nvtx_ops (run)
              : ws_stats_summary (run, kind, form);
  ws_summary_table_write (summary, format, out);
  /* The nsys console form ends each report with a blank line. */
  if (format == WS_FORMAT_TABLE)
    g_string_append_c (out, '\n');
}

int
ws_cli_stats (int argc, char **argv)
{
  g_autofree char *report_str = NULL;
  g_autofree char *name_str = NULL;
  gboolean group_ops = FALSE;
  gboolean steady = FALSE;
  GOptionEntry entries[] = {
    { "report", 'r', 0, G_OPTION_ARG_STRING, &report_str,
      N_ ("Reports, comma-separated: cuda_gpu_kern_sum (default), nvtx_sum, cuda_api_sum, "
          "cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, osrt_sum, nvtx_gpu_proj_sum, "
          "nvtx_kern_sum"),
      "REPORT" },
    { "name", 'n', 0, G_OPTION_ARG_STRING, &name_str,
      N_ ("Kernel names: demangled (default), short, mangled or display"), "FORM" },
    { "group-ops", 0, 0, G_OPTION_ARG_NONE, &group_ops,
      N_ ("nvtx_sum: one row per PyTorch operator (“aten::addmm”) instead of one per op range "
          "(“aten::addmm, seq = 6, op_id = 52”)"),
      NULL },
    { "steady", 0, 0, G_OPTION_ARG_NONE, &steady,
      N_ ("Only the steady state: the steps past the warm-up (see warpscope-cli steps)"), NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("FILE.sqlite — summaries as nsys stats prints them"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GArray) kinds = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (WsNvtxGpu) nvtx_gpu = NULL;
  gboolean lean = TRUE;
  g_auto (WsCliFrame) frame = { 0 };
  WsOutputFormat format;
  WsNameForm form = WS_NAME_DEMANGLED;
  WsLoadFlags flags = 0;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context, _ ("Computes the reports of “nsys stats” from an Nsight Systems SQLite "
                "export, with the same definitions and numbers. With --format csv "
                "the output equals nsys stats --format csv."));
  ws_cli_frame_init (
    &frame, context, argv[0], WS_CLI_TABLE | WS_CLI_CSV | WS_CLI_MD,
    N_ ("Output format: table (default, as the nsys console), csv (as nsys --format csv) or md"));
  if (!ws_cli_frame_parse (&frame, context, &argc, &argv, 1, -1, NULL))
    return WS_EXIT_BAD_INPUT;

  if (!parse_reports (report_str, kinds, &flags))
    return WS_EXIT_BAD_INPUT;
  format = frame.format;
  if (name_str != NULL && !ws_name_form_from_string (name_str, &form))
    {
      ws_cli_error ("stats", _ ("unknown name form “%s” (demangled, short, mangled or display)"),
                    name_str);
      return WS_EXIT_BAD_INPUT;
    }

  /* Read only the columns the reports need: as fast as SQLite's own GROUP BY. */
  /* The steps are found in the NVTX ranges, and kernels placed by their
   * launch calls. */
  if (steady)
    {
      flags |= WS_LOAD_NVTX | WS_LOAD_API;
      lean = FALSE;
    }
  /* A rank is told by its streams and threads: --rank reads them. */
  if (lean && !ws_cli_rank_filter_given ())
    flags |= WS_LOAD_LEAN;
  if (form == WS_NAME_SHORT)
    flags |= WS_LOAD_NAME_SHORT;
  else if (form == WS_NAME_MANGLED)
    flags |= WS_LOAD_NAME_MANGLED;
  run = ws_cli_load (argv + 1, flags, &error);
  if (run == NULL)
    return ws_cli_fail (error);
  if (steady && !ws_cli_use_steady (&run, argv[1]))
    return WS_EXIT_BAD_INPUT;
  /* A form the export lacks (mangled names before nsys 2022.1): say so,
   * then show the nearest, as nsys does. */
  if (run->kernels.n > 0 && !((flags & WS_LOAD_LEAN) && (flags & WS_LOAD_NO_KERNEL_NAMES)) &&
      !ws_run_has_kernel_names (run, form))
    {
      WsNameForm nearest = ws_run_kernel_name_form (run, form);

      /* TRANSLATORS: the export, the name form asked for, the form shown */
      g_printerr (_ ("warpscope-cli: %s: the export has no %s kernel names; %s names are shown\n"),
                  argv[1], ws_name_form_to_string (form), ws_name_form_to_string (nearest));
      form = nearest;
    }
  /* Without --report, a stats CSV prints its own report. */
  if (report_str == NULL && !ws_run_has_summary_data (run, WS_SUMMARY_KERN_SUM))
    for (guint kind = 0; kind < WS_N_SUMMARY_KINDS; kind++)
      if (run->summaries[kind] != NULL)
        {
          g_array_index (kinds, guint, 0) = kind;
          break;
        }

  for (guint i = 0; i < kinds->len; i++)
    {
      guint kind = g_array_index (kinds, guint, i);

      if (i > 0)
        g_string_append_c (out, '\n');
      if (format == WS_FORMAT_TABLE)
        g_string_append_printf (out, " ** %s (%s):\n\n", _ (report_titles[kind]),
                                report_name (kind));

      write_report (run, kind, format, form, group_ops, argv[1], &nvtx_gpu, out);
    }

  if (!ws_cli_write (NULL, out->str, out->len, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
