/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib/gi18n.h>

#include "ws-cli.h"
#include "ws-kernel-names.h"
#include "ws-kernel-report.h"
#include "ws-nvtx-kern-sum.h"
#include "ws-nvtx-report.h"
#include "ws-stats.h"
#include "ws-summary-table.h"

/* Reports beyond the five summaries a run keeps: NVTX ranges on the GPU,
 * kernels by launch shape and by launch call. */
enum
{
  REPORT_NVTX_GPU_PROJ = WS_N_SUMMARY_KINDS,
  REPORT_NVTX_KERN,
  REPORT_KERN_GB,
  REPORT_KERN_EXEC,
  N_REPORTS,
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
  N_ ("CUDA GPU Kernel/Grid/Block Summary"),
  N_ ("CUDA Kernel Launch & Exec Time Summary"),
};

static const char *const extra_names[] = {
  "nvtx_gpu_proj_sum",
  "nvtx_kern_sum",
  "cuda_gpu_kern_gb_sum",
  "cuda_kern_exec_sum",
};

G_STATIC_ASSERT (G_N_ELEMENTS (report_titles) == N_REPORTS);
G_STATIC_ASSERT (G_N_ELEMENTS (extra_names) == N_REPORTS - WS_N_SUMMARY_KINDS);

/* One report --report asks for, with its arguments
 * ("cuda_gpu_kern_sum:base"). */
typedef struct
{
  guint kind;
  WsNameForm form;    /* its kernel names: :base or :mangled, else --name */
  gboolean nvtx_name; /* :nvtx-name: each kernel after its innermost NVTX range */
  char *spec;         /* the report and its arguments, as nsys names them */
} Report;

/* What the reports of one run share, made when the first needs it. */
typedef struct
{
  WsNvtxGpu *nvtx_gpu;
  WsNvtxJoin *join;
} Shared;

static void
shared_clear (Shared *shared)
{
  g_clear_pointer (&shared->nvtx_gpu, ws_nvtx_gpu_unref);
  g_clear_pointer (&shared->join, ws_nvtx_join_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Shared, shared_clear)

static void
report_clear (gpointer data)
{
  Report *report = data;

  g_free (report->spec);
}

static const char *
report_name (guint kind)
{
  if (kind >= WS_N_SUMMARY_KINDS)
    return extra_names[kind - WS_N_SUMMARY_KINDS];
  return ws_summary_kind_to_string ((WsSummaryKind) kind);
}

static gboolean
report_from_name (const char *name, guint *kind)
{
  WsSummaryKind summary_kind;

  if (ws_summary_kind_from_string (name, &summary_kind))
    {
      *kind = summary_kind;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (extra_names); i++)
    if (g_str_equal (name, extra_names[i]))
      {
        *kind = WS_N_SUMMARY_KINDS + i;
        return TRUE;
      }
  return FALSE;
}

/* The reports whose rows are kernels by name: they take :base and
 * :mangled, and --name. */
static gboolean
names_kernels (guint kind)
{
  return kind == WS_SUMMARY_KERN_SUM || kind == REPORT_NVTX_KERN || kind == REPORT_KERN_GB ||
         kind == REPORT_KERN_EXEC;
}

/* Those of them that nsys also gives :nvtx-name (nvtx_kern_sum has its
 * ranges in a column of their own). */
static gboolean
takes_nvtx_name (guint kind)
{
  return kind == WS_SUMMARY_KERN_SUM || kind == REPORT_KERN_GB || kind == REPORT_KERN_EXEC;
}

/* @text, a report and its arguments ("cuda_gpu_kern_sum:base"), as
 * @report; FALSE after printing what is wrong with it. */
static gboolean
parse_report (const char *text, WsNameForm name_form, Report *report)
{
  g_auto (GStrv) parts = g_strsplit (text, ":", -1);
  gboolean base = FALSE, mangled = FALSE, nvtx_name = FALSE;

  if (!report_from_name (g_strstrip (parts[0]), &report->kind))
    {
      ws_cli_error ("stats", _ ("unknown report “%s”"), parts[0]);
      return FALSE;
    }
  for (guint i = 1; parts[i] != NULL; i++)
    {
      const char *arg = g_strstrip (parts[i]);

      if (g_str_equal (arg, "nvtx-name") && takes_nvtx_name (report->kind))
        nvtx_name = TRUE;
      else if (g_str_equal (arg, "base") && names_kernels (report->kind))
        base = TRUE;
      else if (g_str_equal (arg, "mangled") && names_kernels (report->kind))
        mangled = TRUE;
      else
        {
          if (takes_nvtx_name (report->kind))
            ws_cli_error ("stats",
                          _ ("report “%s” has no argument “%s” (it takes nvtx-name, and base "
                             "or mangled)"),
                          parts[0], arg);
          else if (names_kernels (report->kind))
            ws_cli_error ("stats",
                          _ ("report “%s” has no argument “%s” (it takes base or mangled)"),
                          parts[0], arg);
          else
            ws_cli_error ("stats", _ ("report “%s” takes no argument (“%s” given)"), parts[0], arg);
          return FALSE;
        }
    }
  if (base && mangled)
    {
      ws_cli_error ("stats", _ ("%s: “base” and “mangled” exclude each other"), text);
      return FALSE;
    }
  report->form = base ? WS_NAME_SHORT : mangled ? WS_NAME_MANGLED : name_form;
  report->nvtx_name = nvtx_name;
  /* In nsys's order: report[:nvtx-name][:base|:mangled]. */
  report->spec = g_strconcat (parts[0], nvtx_name ? ":nvtx-name" : "", base ? ":base" : "",
                              mangled ? ":mangled" : "", NULL);
  return TRUE;
}

/* A report with nothing to read is not an error, as in nsys: it says
 * which data the export lacks, on standard error beside a CSV. */
static void
say_skipped (const char *file, const char *missing, WsOutputFormat format, GString *out)
{
  g_autofree char *line = g_strdup_printf ("SKIPPED: %s does not contain %s.\n", file, missing);

  if (format == WS_FORMAT_CSV)
    g_printerr ("%s", line);
  else
    g_string_append (out, line);
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

/* Returns: FALSE when the report was skipped */
static gboolean
write_nvtx_gpu_report (const WsRun *run, const Report *report, WsOutputFormat format,
                       const char *file, Shared *shared, GString *out)
{
  const char *missing = nvtx_gpu_missing (run, report->kind);

  if (missing != NULL)
    {
      say_skipped (file, missing, format, out);
      return FALSE;
    }
  if (shared->nvtx_gpu == NULL)
    shared->nvtx_gpu = ws_nvtx_gpu_new_projected (run);
  if (report->kind == REPORT_NVTX_GPU_PROJ)
    {
      g_autoptr (GArray) rows = ws_nvtx_gpu_proj_sum (shared->nvtx_gpu);

      ws_nvtx_proj_sum_write (rows, format, out);
    }
  else
    {
      g_autoptr (GArray) rows = ws_nvtx_kern_sum (shared->nvtx_gpu, report->form);

      ws_nvtx_kern_sum_write (run, rows, format, out);
    }
  return TRUE;
}

/* The names @report gives the kernels of @run: in its form, and with
 * :nvtx-name after their innermost NVTX ranges. */
static void
kernel_names_for (const WsRun *run, const Report *report, Shared *shared, WsKernelNames *names)
{
  if (!report->nvtx_name)
    {
      ws_kernel_names_init (names, run, report->form);
      return;
    }
  if (shared->join == NULL)
    {
      g_autoptr (WsLaunchIndex) launches = ws_launch_index_new (run);

      shared->join = ws_nvtx_join_new (launches);
    }
  ws_kernel_names_init_nvtx (names, shared->join, report->form);
}

/* cuda_gpu_kern_gb_sum or cuda_kern_exec_sum; nsys checks the kernel
 * table first, then the API calls.
 *
 * Returns: FALSE when the report was skipped */
static gboolean
write_kernel_report (const WsRun *run, const Report *report, WsOutputFormat format,
                     const char *file, Shared *shared, GString *out)
{
  g_autoptr (GArray) rows = NULL;
  g_auto (WsKernelNames) names = { 0 };

  if (run->kernels.n == 0)
    {
      say_skipped (file, "CUDA kernel data", format, out);
      return FALSE;
    }
  if (report->kind == REPORT_KERN_EXEC && !run->has_runtime_table && run->api.n == 0)
    {
      say_skipped (file, "CUDA API data", format, out);
      return FALSE;
    }
  kernel_names_for (run, report, shared, &names);
  if (report->kind == REPORT_KERN_GB)
    {
      rows = ws_kern_gb_sum (&names);
      ws_kern_gb_sum_write (&names, rows, format, out);
    }
  else
    {
      rows = ws_kern_exec_sum (&names);
      ws_kern_exec_sum_write (&names, rows, format, out);
    }
  return TRUE;
}

static WsLoadFlags
flags_for (const Report *report)
{
  /* The launch calls' threads, and the NVTX ranges around them. */
  if (report->nvtx_name)
    return WS_LOAD_KERNELS | WS_LOAD_API | WS_LOAD_NVTX | WS_LOAD_LAUNCHES | WS_LOAD_NO_SUMMARIES;
  switch (report->kind)
    {
      /* Tables whose summaries no report may ask for: each report computes
       * its own when written, none at load.  A summary report alone keeps
       * the load's, computed on the loader's thread beside the events
       * (1.4 MB less at the peak for nvtx_sum). */
      case REPORT_NVTX_GPU_PROJ:
      case REPORT_NVTX_KERN:
        return WS_LOAD_KERNELS | WS_LOAD_MEMOPS | WS_LOAD_API | WS_LOAD_NVTX | WS_LOAD_LAUNCHES |
               WS_LOAD_NO_SUMMARIES;
      case REPORT_KERN_GB:
        return WS_LOAD_KERNELS | WS_LOAD_NO_SUMMARIES;
      case REPORT_KERN_EXEC:
        return WS_LOAD_KERNELS | WS_LOAD_API | WS_LOAD_NO_SUMMARIES;
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

/* The reports --report names, in @reports, and what the run must be read
 * with for them (@full: more than a lean load reads); FALSE after printing
 * what is wrong. */
static gboolean
parse_reports (const char *report_str, WsNameForm name_form, GArray *reports, WsLoadFlags *flags,
               gboolean *full)
{
  g_auto (GStrv) texts =
    g_strsplit (report_str != NULL ? report_str : "cuda_gpu_kern_sum", ",", -1);
  gboolean api_names = FALSE;
  guint forms = 0;

  for (guint i = 0; texts[i] != NULL; i++)
    {
      Report report = { 0 };

      if (!parse_report (g_strstrip (texts[i]), name_form, &report))
        return FALSE;
      g_array_append_val (reports, report);
      *flags |= flags_for (&report);
      /* Display names are made from the demangled ones. */
      if (names_kernels (report.kind))
        forms |= 1u << (report.form == WS_NAME_DISPLAY ? WS_NAME_DEMANGLED : report.form);
      api_names = api_names || report.kind == WS_SUMMARY_API_SUM || report.kind == REPORT_KERN_EXEC;
      /* Launch shapes, devices and the calls' threads: a lean load reads
       * none of them. */
      *full = *full || report.kind == REPORT_KERN_GB || report.kind == REPORT_KERN_EXEC;
    }
  /* A lean load reads one name form: two take the whole kernel table. */
  *full = *full || (forms & (forms - 1)) != 0;
  if (forms & (1u << WS_NAME_SHORT))
    *flags |= WS_LOAD_NAME_SHORT;
  else if (forms & (1u << WS_NAME_MANGLED))
    *flags |= WS_LOAD_NAME_MANGLED;
  /* A lean load reads no names that no report prints. */
  if (forms == 0)
    *flags |= WS_LOAD_NO_KERNEL_NAMES;
  if (!api_names)
    *flags |= WS_LOAD_NO_API_NAMES;
  return TRUE;
}

/* Report @report of @run, as nsys stats prints it (a missing one is a
 * SKIPPED line, as there). */
static void
write_report (WsRun *run, const Report *report, WsOutputFormat format, gboolean group_ops,
              const char *file, Shared *shared, GString *out)
{
  guint kind = report->kind;
  g_autoptr (WsSummary) summary = NULL;
  gboolean written;

  if (kind == REPORT_NVTX_GPU_PROJ || kind == REPORT_NVTX_KERN)
    written = write_nvtx_gpu_report (run, report, format, file, shared, out);
  else if (kind >= WS_N_SUMMARY_KINDS)
    written = write_kernel_report (run, report, format, file, shared, out);
  else if (!ws_run_has_summary_data (run, kind))
    {
      /* As nsys: not an error, the report has nothing to summarise.
       * nvprof's metric runs replay each kernel: no times to sum. */
      if (run->ncu != NULL && run->ncu->nvprof && kind == WS_SUMMARY_KERN_SUM)
        {
          g_autofree char *line =
            g_strdup_printf ("SKIPPED: %s holds nvprof metrics of %u kernels, not their times "
                             "(metric runs replay each kernel); `warpscope-cli gauges` shows "
                             "them.\n",
                             file, ws_ncu_results_n_launches (run->ncu));

          if (format == WS_FORMAT_CSV)
            g_printerr ("%s", line);
          else
            g_string_append (out, line);
        }
      else
        say_skipped (file, ws_summary_kind_missing_data (kind), format, out);
      return;
    }
  /* A summary read from a stats CSV has no kernels to name: it is printed
   * as read, as with :base. */
  else if (report->nvtx_name && run->kernels.n > 0)
    {
      g_auto (WsKernelNames) names = { 0 };

      kernel_names_for (run, report, shared, &names);
      summary = ws_stats_compute_kernels (&names);
      ws_summary_table_write (summary, format, out);
      written = TRUE;
    }
  else
    {
      summary = kind == WS_SUMMARY_NVTX_SUM && group_ops && ws_run_has_summary_events (run, kind)
                  ? ws_stats_compute_nvtx_ops (run)
                  : ws_stats_summary (run, kind, report->form);
      ws_summary_table_write (summary, format, out);
      written = TRUE;
    }
  /* The nsys console form ends each report with a blank line. */
  if (written && format == WS_FORMAT_TABLE)
    g_string_append_c (out, '\n');
}

/* A report's kernel name form that the export lacks (mangled names
 * before nsys 2022.1) becomes the nearest it has, as nsys falls back,
 * said once per form. */
static void
use_held_forms (const WsRun *run, GArray *reports, const char *file)
{
  guint said = 0;

  if (run->kernels.n == 0)
    return;
  for (guint i = 0; i < reports->len; i++)
    {
      Report *report = &g_array_index (reports, Report, i);
      WsNameForm nearest;

      if (!names_kernels (report->kind) || ws_run_has_kernel_names (run, report->form))
        continue;
      nearest = ws_run_kernel_name_form (run, report->form);
      if (!(said & (1u << report->form)))
        /* TRANSLATORS: the export, the name form asked for, the form shown */
        g_printerr (_ ("warpscope-cli: %s: the export has no %s kernel names; %s names are "
                       "shown\n"),
                    file, ws_name_form_to_string (report->form), ws_name_form_to_string (nearest));
      said |= 1u << report->form;
      report->form = nearest;
    }
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
          "nvtx_kern_sum, cuda_gpu_kern_gb_sum, cuda_kern_exec_sum; the kernel reports take "
          ":base or :mangled (cuda_gpu_kern_sum:base), and all but nvtx_kern_sum :nvtx-name "
          "(cuda_gpu_kern_sum:nvtx-name:base)"),
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
  g_autoptr (GArray) reports = g_array_new (FALSE, FALSE, sizeof (Report));
  g_auto (Shared) shared = { 0 };
  gboolean full = FALSE;
  g_auto (WsCliFrame) frame = { 0 };
  WsOutputFormat format;
  WsNameForm form = WS_NAME_DEMANGLED;
  WsLoadFlags flags = 0;

  g_array_set_clear_func (reports, report_clear);
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

  format = frame.format;
  if (name_str != NULL && !ws_name_form_from_string (name_str, &form))
    {
      ws_cli_error ("stats", _ ("unknown name form “%s” (demangled, short, mangled or display)"),
                    name_str);
      return WS_EXIT_BAD_INPUT;
    }
  if (!parse_reports (report_str, form, reports, &flags, &full))
    return WS_EXIT_BAD_INPUT;

  /* Read only the columns the reports need: as fast as SQLite's own GROUP
   * BY.  The steps are found in the NVTX ranges, and kernels placed by
   * their launch calls; a rank is told by its streams and threads: --rank
   * reads them. */
  if (steady)
    flags |= WS_LOAD_NVTX | WS_LOAD_API;
  if (!full && !steady && !ws_cli_rank_filter_given ())
    flags |= WS_LOAD_LEAN;
  run = ws_cli_load (argv + 1, flags, &error);
  if (run == NULL)
    return ws_cli_fail (error);
  if (steady && !ws_cli_use_steady (&run, argv[1]))
    return WS_EXIT_BAD_INPUT;
  use_held_forms (run, reports, argv[1]);
  /* Without --report, a stats CSV prints its own report. */
  if (report_str == NULL && !ws_run_has_summary_data (run, WS_SUMMARY_KERN_SUM))
    for (guint kind = 0; kind < WS_N_SUMMARY_KINDS; kind++)
      if (run->summaries[kind] != NULL)
        {
          Report *first = &g_array_index (reports, Report, 0);

          first->kind = kind;
          g_free (first->spec);
          first->spec = g_strdup (report_name (kind));
          break;
        }

  for (guint i = 0; i < reports->len; i++)
    {
      const Report *report = &g_array_index (reports, Report, i);

      if (i > 0)
        g_string_append_c (out, '\n');
      if (format == WS_FORMAT_TABLE)
        g_string_append_printf (out, " ** %s (%s):\n\n", _ (report_titles[report->kind]),
                                report->spec);

      write_report (run, report, format, group_ops, argv[1], &shared, out);
    }

  if (!ws_cli_write_report (out, format == WS_FORMAT_CSV || format == WS_FORMAT_JSON, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      return WS_EXIT_FAILED;
    }
  return WS_EXIT_OK;
}
