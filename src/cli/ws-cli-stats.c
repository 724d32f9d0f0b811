/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-cli.h"
#include "ws-stats.h"
#include "ws-summary-table.h"

static const char *const report_titles[WS_N_SUMMARY_KINDS] = {
  N_ ("CUDA GPU Kernel Summary"),
  N_ ("NVTX Range Summary"),
  N_ ("CUDA API Summary"),
  N_ ("CUDA GPU MemOps Summary (by Time)"),
  N_ ("CUDA GPU MemOps Summary (by Size)"),
  N_ ("OS Runtime Summary"),
};

static WsLoadFlags
flags_for (WsSummaryKind kind)
{
  switch (kind)
    {
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
      case WS_N_SUMMARY_KINDS:
      default:
        return WS_LOAD_ALL;
    }
}

int
ws_cli_stats (int argc, char **argv)
{
  g_autofree char *report_str = NULL;
  g_autofree char *format_str = NULL;
  g_autofree char *name_str = NULL;
  GOptionEntry entries[] = {
    { "report", 'r', 0, G_OPTION_ARG_STRING, &report_str,
      N_ ("Reports, comma-separated: cuda_gpu_kern_sum (default), nvtx_sum, cuda_api_sum, "
          "cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, osrt_sum"),
      "REPORT" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_str,
      N_ ("Output format: table (default, as the nsys console), csv (as nsys --format csv) or md"),
      "FORMAT" },
    { "name", 'n', 0, G_OPTION_ARG_STRING, &name_str,
      N_ ("Kernel names: demangled (default), short or mangled"), "FORM" },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("FILE.sqlite — summaries as nsys stats prints them"));
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_auto (GStrv) reports = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GArray) kinds = g_array_new (FALSE, FALSE, sizeof (WsSummaryKind));
  WsOutputFormat format = WS_FORMAT_TABLE;
  WsNameForm form = WS_NAME_DEMANGLED;
  WsLoadFlags flags = 0;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context, _ ("Computes the reports of “nsys stats” from an Nsight Systems SQLite "
                "export, with the same definitions and numbers. With --format csv "
                "the output equals nsys stats --format csv."));
  if (!ws_cli_parse (context, &argc, &argv, 1, 1))
    return WS_EXIT_BAD_INPUT;

  reports = g_strsplit (report_str != NULL ? report_str : "cuda_gpu_kern_sum", ",", -1);
  for (guint i = 0; reports[i] != NULL; i++)
    {
      WsSummaryKind kind;

      if (!ws_summary_kind_from_string (g_strstrip (reports[i]), &kind))
        {
          g_printerr (_ ("warpscope-cli: stats: unknown report “%s”\n"), reports[i]);
          return WS_EXIT_BAD_INPUT;
        }
      g_array_append_val (kinds, kind);
      flags |= flags_for (kind);
    }
  if (format_str != NULL &&
      (!ws_output_format_from_string (format_str, &format) || format == WS_FORMAT_JSON))
    {
      g_printerr (_ ("warpscope-cli: stats: unknown format “%s” (table, csv or md)\n"), format_str);
      return WS_EXIT_BAD_INPUT;
    }
  if (name_str != NULL && !ws_name_form_from_string (name_str, &form))
    {
      g_printerr (
        _ ("warpscope-cli: stats: unknown name form “%s” (demangled, short or mangled)\n"),
        name_str);
      return WS_EXIT_BAD_INPUT;
    }

  /* Read only the columns the reports need: as fast as SQLite's own GROUP BY. */
  flags |= WS_LOAD_LEAN;
  if (form == WS_NAME_SHORT)
    flags |= WS_LOAD_NAME_SHORT;
  else if (form == WS_NAME_MANGLED)
    flags |= WS_LOAD_NAME_MANGLED;
  run = ws_cli_load (argv + 1, flags, &error);
  if (run == NULL)
    return ws_cli_fail (error);
  /* A form the export lacks (mangled names before nsys 2022.1): say so,
   * then show the nearest, as nsys does. */
  if (run->kernels.n > 0 && !ws_run_has_kernel_names (run, form))
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
          g_array_index (kinds, WsSummaryKind, 0) = (WsSummaryKind) kind;
          break;
        }

  for (guint i = 0; i < kinds->len; i++)
    {
      WsSummaryKind kind = g_array_index (kinds, WsSummaryKind, i);
      g_autoptr (WsSummary) summary = NULL;

      if (i > 0)
        g_string_append_c (out, '\n');
      if (format == WS_FORMAT_TABLE)
        g_string_append_printf (out, " ** %s (%s):\n\n", _ (report_titles[kind]),
                                ws_summary_kind_to_string (kind));

      if (!ws_run_has_summary_data (run, kind))
        {
          /* As nsys: not an error, the report has nothing to summarise. */
          g_autofree char *line = g_strdup_printf ("SKIPPED: %s does not contain %s.\n", argv[1],
                                                   ws_summary_kind_missing_data (kind));

          if (format == WS_FORMAT_CSV)
            g_printerr ("%s", line);
          else
            g_string_append (out, line);
          continue;
        }

      summary = ws_stats_summary (run, kind, form);
      ws_summary_table_write (summary, format, out);
      /* The nsys console form ends each report with a blank line. */
      if (format == WS_FORMAT_TABLE)
        g_string_append_c (out, '\n');
    }

  if (!ws_cli_write (NULL, out->str, out->len, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
