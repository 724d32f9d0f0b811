/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-capture-plan"
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "ws-capture-error.h"
#include "ws-capture-plan.h"
#include "ws-kernel-display.h"
#include "ws-csv.h"
#include "ws-kernel-name.h"
#include "ws-target-validate.h"

/* Folder and file names made from NAMEs and kernel names stay below this,
 * well under NAME_MAX with the suffixes added to them. */
#define MAX_NAME_BYTES 80

void
ws_capture_command_free (WsCaptureCommand *command)
{
  if (command == NULL)
    return;
  g_strfreev (command->argv);
  g_free (command->cwd);
  g_strfreev (command->envp);
  g_strfreev (command->env_added);
  g_free (command->stdout_path);
  g_strfreev (command->outputs);
  g_free (command->kernel);
  g_free (command);
}

void
ws_capture_kernel_free (WsCaptureKernel *kernel)
{
  if (kernel == NULL)
    return;
  g_free (kernel->name);
  g_free (kernel->display);
  g_free (kernel->file);
  g_free (kernel->mangled);
  g_free (kernel->grid);
  g_free (kernel->block);
  g_free (kernel);
}

void
ws_capture_plan_free (WsCapturePlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->name);
  g_free (plan->folder_name);
  g_free (plan->dir);
  g_free (plan->nsys_dir);
  g_free (plan->ncu_dir);
  g_free (plan->nsys_base);
  g_free (plan->kern_sum_csv);
  ws_capture_settings_free (plan->settings);
  g_free (plan->nsys);
  g_free (plan->ncu);
  g_free (plan->workdir);
  g_strfreev (plan->target_argv);
  g_strfreev (plan->envp);
  g_strfreev (plan->env_added);
  for (guint i = 0; i <= WS_CAPTURE_N_STEPS; i++)
    g_clear_pointer (&plan->steps[i], g_ptr_array_unref);
  g_clear_pointer (&plan->kernels, g_ptr_array_unref);
  g_clear_pointer (&plan->left_out, g_ptr_array_unref);
  if (plan->launch != NULL)
    ws_capture_launch_clear (plan->launch);
  g_free (plan->launch);
  g_strfreev (plan->rank_csvs);
  g_free (plan);
}

/* Untranslated: for run.json and the log; the window has its own words. */
const char *
ws_capture_step_title (WsCaptureStepKind step)
{
  static const char *const titles[] = {
    NULL,          "prepare folders", "nsys profile", "nsys stats", "top-N kernels",
    "ncu profile", "ncu export",
  };

  g_return_val_if_fail (step >= 1 && step <= WS_CAPTURE_N_STEPS, NULL);
  return titles[step];
}

const char *
ws_capture_step_state_nick (WsCaptureStepState state)
{
  switch (state)
    {
      case WS_CAPTURE_STEP_WAITING:
        return "waiting";
      case WS_CAPTURE_STEP_RUNNING:
        return "running";
      case WS_CAPTURE_STEP_DONE:
        return "done";
      case WS_CAPTURE_STEP_FAILED:
        return "failed";
      case WS_CAPTURE_STEP_SKIPPED:
        return "skipped";
      default:
        g_return_val_if_reached (NULL);
    }
}

/**
 * ws_capture_safe_name:
 *
 * A folder (or file) name for @name that is one path component: every
 * printable character is kept ("GPT2训练" stays "GPT2训练"); `/`, control
 * characters and bytes that are not UTF-8 become `_`, and so does a dot
 * that starts the name, so that the result is never `.`, `..` or a hidden
 * folder; an empty name becomes `_`; a long name is cut at MAX_NAME_BYTES,
 * between characters.
 *
 * Returns: (transfer full): a name that is one path component
 */
char *
ws_capture_safe_name (const char *name)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (name != NULL, NULL);

  for (const char *p = name; *p != '\0';)
    {
      gunichar c = g_utf8_get_char_validated (p, -1);
      gboolean valid = c != (gunichar) -1 && c != (gunichar) -2;
      const char *next = valid ? g_utf8_next_char (p) : p + 1;
      gsize len = valid ? (gsize) (next - p) : 1;

      if (out->len + len > MAX_NAME_BYTES)
        break;
      if (!valid || c == '/' || !g_unichar_isprint (c) || (c == '.' && out->len == 0))
        g_string_append_c (out, '_');
      else
        g_string_append_len (out, p, (gssize) len);
      p = next;
    }
  if (out->len == 0)
    g_string_append_c (out, '_');
  return g_string_free (out, FALSE);
}

/**
 * ws_capture_unique_name:
 * @used: (element-type utf8 utf8): names already taken; the result is added
 *
 * Returns: (transfer full): @name, or `@name_2`, `@name_3`, … when taken
 */
char *
ws_capture_unique_name (GHashTable *used, const char *name)
{
  char *unique = g_strdup (name);

  for (guint i = 2; g_hash_table_contains (used, unique); i++)
    {
      g_free (unique);
      unique = g_strdup_printf ("%s_%u", name, i);
    }
  g_hash_table_add (used, g_strdup (unique));
  return unique;
}

static WsCaptureCommand *
command_new (WsCapturePlan *plan, GPtrArray *argv, const char *cwd)
{
  WsCaptureCommand *command = g_new0 (WsCaptureCommand, 1);

  g_ptr_array_add (argv, NULL);
  command->argv = (char **) g_ptr_array_free (argv, FALSE);
  command->cwd = g_strdup (cwd);
  command->envp = g_strdupv (plan->envp);
  command->env_added = g_strdupv (plan->env_added);
  return command;
}

static void
add (GPtrArray *argv, const char *arg)
{
  g_ptr_array_add (argv, g_strdup (arg));
}

static void
add_target (GPtrArray *argv, WsCapturePlan *plan)
{
  for (guint i = 0; plan->target_argv[i] != NULL; i++)
    add (argv, plan->target_argv[i]);
}

static char **strv_of (const char *first, ...) G_GNUC_NULL_TERMINATED;

static char **
strv_of (const char *first, ...)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  va_list args;

  va_start (args, first);
  for (const char *s = first; s != NULL; s = va_arg (args, const char *))
    g_strv_builder_add (builder, s);
  va_end (args);
  return g_strv_builder_end (builder);
}

/* PER_RANK: @tool (nsys or ncu with its options) inside the job's
 * launcher, as one `bash -lc` line. */
static GPtrArray *
per_rank_argv (WsCapturePlan *plan, GPtrArray *tool, gint one_rank)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *line = NULL;
  g_autofree char *bash = NULL;

  g_ptr_array_add (tool, NULL);
  line = one_rank >= 0
           ? ws_capture_launch_on_rank (plan->launch, (guint) one_rank, (char **) tool->pdata)
           : ws_capture_launch_command (plan->launch, (char **) tool->pdata);
  g_ptr_array_unref (tool);
  /* The launcher runs first, not under nsys: bash itself is spawned,
   * which takes a path. */
  bash = g_find_program_in_path ("bash");
  g_ptr_array_add (argv, bash != NULL ? g_steal_pointer (&bash) : g_strdup ("/bin/bash"));
  add (argv, "-lc");
  g_ptr_array_add (argv, g_steal_pointer (&line));
  return argv;
}

/* The launcher as found on the capture's PATH (a login shell may set
 * PATH anew, and must not lose the torchrun or mpirun the user meant);
 * left as written where PATH has none. */
static void
resolve_launcher (WsCapturePlan *plan)
{
  const char *path = g_environ_getenv (plan->envp, "PATH");
  char **launcher = plan->launch->launcher;
  g_auto (GStrv) dirs = NULL;

  if (path == NULL || strchr (launcher[0], '/') != NULL)
    return;
  dirs = g_strsplit (path, ":", -1);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *file = NULL;

      if (dirs[i][0] != '/')
        continue;
      file = g_build_filename (dirs[i], launcher[0], NULL);
      if (g_file_test (file, G_FILE_TEST_IS_EXECUTABLE) && !g_file_test (file, G_FILE_TEST_IS_DIR))
        {
          g_free (launcher[0]);
          launcher[0] = g_steal_pointer (&file);
          return;
        }
    }
}

/* Step 2 of a job: every rank under an nsys of its own, each writing
 * rank<N>.nsys-rep. */
static WsCaptureCommand *
per_rank_profile (WsCapturePlan *plan, GPtrArray *tool)
{
  g_autoptr (GStrvBuilder) reports = g_strv_builder_new ();
  WsCaptureCommand *command;

  g_ptr_array_add (tool, g_strconcat (plan->nsys_dir, "/rank", plan->launch->rank_pattern, NULL));
  command = command_new (plan, per_rank_argv (plan, tool, -1), plan->workdir);
  for (guint r = 0; r < plan->launch->n_ranks; r++)
    {
      g_autofree char *report = g_strdup_printf ("%s/rank%u.nsys-rep", plan->nsys_dir, r);

      g_strv_builder_add (reports, report);
    }
  command->outputs = g_strv_builder_end (reports);
  return command;
}

/* Step 2: nsys over the whole program (or its NVTX range). */
static WsCaptureCommand *
nsys_profile (WsCapturePlan *plan)
{
  const WsCaptureSettings *settings = plan->settings;
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *rep = g_strconcat (plan->nsys_base, ".nsys-rep", NULL);
  WsCaptureCommand *command;

  add (argv, plan->nsys);
  add (argv, "profile");
  add (argv, "--force-overwrite=true");
  g_ptr_array_add (argv, g_strconcat ("--trace=", settings->nsys_trace, NULL));
  add (argv, "--sample=none");
  if (settings->nvtx_range != NULL)
    {
      add (argv, "--capture-range=nvtx");
      g_ptr_array_add (argv, g_strconcat ("--nvtx-capture=", settings->nvtx_range, NULL));
      add (argv, "--capture-range-end=stop");
    }
  if (settings->nsys_duration > 0)
    g_ptr_array_add (argv, g_strdup_printf ("--duration=%u", settings->nsys_duration));
  g_ptr_array_add (argv,
                   g_strconcat ("--cuda-graph-trace=", settings->nsys_cuda_graph_trace, NULL));
  add (argv, "--output");
  if (plan->launch != NULL)
    return per_rank_profile (plan, argv);
  add (argv, plan->nsys_base);
  add_target (argv, plan);

  command = command_new (plan, argv, plan->workdir);
  /* nsys may exit 0 having written only a .qdstrm (importer missing): the
   * report is what tells success. */
  command->outputs = strv_of (rep, NULL);
  return command;
}

/* Step 3: the kernel summary as CSV, and the SQLite export beside it. */
static WsCaptureCommand *
nsys_stats (WsCapturePlan *plan, const char *nsys_base)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *rep = g_strconcat (nsys_base, ".nsys-rep", NULL);
  g_autofree char *sqlite = g_strconcat (nsys_base, ".sqlite", NULL);
  WsCaptureCommand *command;

  add (argv, plan->nsys);
  add (argv, "stats");
  add (argv, "--report");
  add (argv, "cuda_gpu_kern_sum");
  add (argv, "--format");
  add (argv, "csv");
  add (argv, "--force-export=true");
  add (argv, "--force-overwrite=true");
  add (argv, "--output");
  add (argv, nsys_base);
  add (argv, rep);

  command = command_new (plan, argv, plan->dir);
  /* The CSV is not required here: a program without kernels gets none,
   * and step 4 says so. */
  command->outputs = strv_of (sqlite, NULL);
  return command;
}

static void
add_env (GPtrArray *added, char ***envp, const char *name, const char *value)
{
  *envp = g_environ_setenv (*envp, name, value, TRUE);
  g_ptr_array_add (added, g_strconcat (name, "=", value, NULL));
}

/**
 * ws_capture_plan_new:
 * @target: the row, with an absolute WORKDIR
 * @folder_name: the target's folder in @group_dir, made by
 *   ws_capture_safe_name() and ws_capture_unique_name()
 * @nsys: the nsys program
 * @ncu: the ncu program
 * @base_env: (nullable): the environment the programs start from; %NULL
 *   for this process's
 *
 * Plans a target's capture: the folders and the commands of steps 2 and
 * 3; steps 5 and 6 follow from the kernels step 4 picks
 * (ws_capture_plan_set_kernels()).  The CMD runs as `bash -lc CMD` in
 * WORKDIR; ENVS reach it through the environment only.
 *
 * Returns: (transfer full): the plan, or %NULL with @error set when ENVS is
 *   not valid
 */
WsCapturePlan *
ws_capture_plan_new (const WsCaptureTarget *target, const char *folder_name, const char *group_dir,
                     const WsCaptureSettings *settings, const char *nsys, const char *ncu,
                     const char *const *base_env, GError **error)
{
  g_autoptr (WsCapturePlan) plan = g_new0 (WsCapturePlan, 1);
  g_autoptr (GPtrArray) added = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) envs = NULL;
  g_autofree char *csv_name = NULL;

  g_return_val_if_fail (target != NULL && target->name != NULL && target->cmd != NULL, NULL);
  g_return_val_if_fail (target->workdir != NULL && g_path_is_absolute (target->workdir), NULL);
  g_return_val_if_fail (folder_name != NULL && strchr (folder_name, '/') == NULL, NULL);
  g_return_val_if_fail (g_strcmp0 (folder_name, "..") != 0 && g_strcmp0 (folder_name, ".") != 0,
                        NULL);
  g_return_val_if_fail (group_dir != NULL && settings != NULL, NULL);
  g_return_val_if_fail (nsys != NULL && ncu != NULL, NULL);

  envs = ws_target_envs_parse (target->envs, error);
  if (envs == NULL)
    {
      g_prefix_error (error, "ENVS of “%s”: ", target->name);
      return NULL;
    }

  if (settings->per_rank)
    {
      plan->launch = g_new0 (WsCaptureLaunch, 1);
      if (!ws_capture_launch_parse (target->cmd, plan->launch, error))
        {
          g_prefix_error (error, "CMD of “%s”: ", target->name);
          return NULL;
        }
    }
  plan->name = g_strdup (target->name);
  plan->folder_name = g_strdup (folder_name);
  plan->dir = g_build_filename (group_dir, folder_name, NULL);
  plan->nsys_dir = g_build_filename (plan->dir, "nsys", NULL);
  plan->ncu_dir = g_build_filename (plan->dir, "ncu", NULL);
  /* A job's reports are rank<N>: rank 0's stands for the target in
   * run.json and step 4's look-up. */
  plan->nsys_base =
    g_build_filename (plan->nsys_dir, plan->launch != NULL ? "rank0" : folder_name, NULL);
  csv_name =
    g_strconcat (plan->launch != NULL ? "rank0" : folder_name, "_cuda_gpu_kern_sum.csv", NULL);
  plan->kern_sum_csv = g_build_filename (plan->nsys_dir, csv_name, NULL);
  plan->settings = ws_capture_settings_copy (settings);
  plan->nsys = g_strdup (nsys);
  plan->ncu = g_strdup (ncu);
  plan->workdir = g_strdup (target->workdir);
  plan->target_argv = strv_of ("bash", "-lc", target->cmd, NULL);

  plan->envp = base_env != NULL ? g_strdupv ((char **) base_env) : g_get_environ ();
  for (guint i = 0; envs[i] != NULL; i++)
    {
      const char *eq = strchr (envs[i], '=');
      g_autofree char *name = g_strndup (envs[i], eq - envs[i]);

      add_env (added, &plan->envp, name, eq + 1);
    }
  /* nsys matches an NVTX capture range only against registered strings
   * unless told otherwise; most programs push plain strings. */
  if (settings->nvtx_range != NULL)
    add_env (added, &plan->envp, "NSYS_NVTX_PROFILER_REGISTER_ONLY", "0");
  g_ptr_array_add (added, NULL);
  plan->env_added = (char **) g_ptr_array_free (g_steal_pointer (&added), FALSE);

  if (plan->launch != NULL)
    resolve_launcher (plan);

  for (guint i = 1; i <= WS_CAPTURE_N_STEPS; i++)
    plan->steps[i] = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_capture_command_free);
  g_ptr_array_add (plan->steps[WS_CAPTURE_STEP_NSYS_PROFILE], nsys_profile (plan));
  if (plan->launch != NULL)
    {
      /* Each rank's summary and export; the kernels come from all of them. */
      plan->rank_csvs = g_new0 (char *, plan->launch->n_ranks + 1);
      for (guint r = 0; r < plan->launch->n_ranks; r++)
        {
          g_autofree char *base = g_strdup_printf ("%s/rank%u", plan->nsys_dir, r);

          g_ptr_array_add (plan->steps[WS_CAPTURE_STEP_NSYS_STATS], nsys_stats (plan, base));
          plan->rank_csvs[r] = g_strconcat (base, "_cuda_gpu_kern_sum.csv", NULL);
        }
    }
  else
    g_ptr_array_add (plan->steps[WS_CAPTURE_STEP_NSYS_STATS], nsys_stats (plan, plan->nsys_base));
  return g_steal_pointer (&plan);
}

static void
append_regex_escaped (GString *out, const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      if (strchr ("\\^$.|?*+()[]{}", *p) != NULL)
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
}

/**
 * ws_capture_kernel_regex:
 * @kernels: (element-type WsCaptureKernel)
 *
 * Builds ncu's `--kernel-name regex:…` for kernels [@first, @first + @n):
 * each name with the regex metacharacters escaped, several joined as
 * `(a|b)`.  Not anchored: ncu's demangled name may differ from nsys's in
 * what surrounds it (a return type), never in the name itself.
 *
 * Returns: (transfer full): the argument, `regex:` included
 */
char *
ws_capture_kernel_regex (GPtrArray *kernels, guint first, guint n)
{
  GString *out = g_string_new ("regex:");

  g_return_val_if_fail (kernels != NULL && first + n <= kernels->len && n > 0, NULL);

  if (n > 1)
    g_string_append_c (out, '(');
  for (guint i = first; i < first + n; i++)
    {
      const WsCaptureKernel *kernel = g_ptr_array_index (kernels, i);

      if (i > first)
        g_string_append_c (out, '|');
      append_regex_escaped (out, kernel->name);
    }
  if (n > 1)
    g_string_append_c (out, ')');
  return g_string_free (out, FALSE);
}

static gboolean
has_communication (GPtrArray *kernels, guint first, guint n)
{
  for (guint i = first; i < first + n; i++)
    if (ws_kernel_name_is_communication (
          ((WsCaptureKernel *) g_ptr_array_index (kernels, i))->name))
      return TRUE;
  return FALSE;
}

/* Step 5: one ncu run over the kernels [first, first + n). */
static WsCaptureCommand *
ncu_profile (WsCapturePlan *plan, guint first, guint n, const char *file)
{
  const WsCaptureSettings *settings = plan->settings;
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *base = g_build_filename (plan->ncu_dir, file, NULL);
  g_autofree char *rep = g_strconcat (base, ".ncu-rep", NULL);
  WsCaptureCommand *command;

  add (argv, plan->ncu);
  add (argv, "-f");
  add (argv, "-o");
  add (argv, base);
  add (argv, "--kernel-name-base");
  add (argv, "demangled");
  add (argv, "--kernel-name");
  g_ptr_array_add (argv, ws_capture_kernel_regex (plan->kernels, first, n));
  /* ncu counts launches over every kernel its filter matches: one run
   * for n kernels takes n times the count. */
  if (settings->ncu_launch_count > 0)
    {
      add (argv, "--launch-count");
      g_ptr_array_add (argv, g_strdup_printf ("%u", settings->ncu_launch_count * n));
    }
  /* A kernel that also runs inside CUDA graphs: a launch from a replay,
   * not from the warm-up before the first one (docs/cuda-graphs.md). */
  if (n == 1 && ((WsCaptureKernel *) g_ptr_array_index (plan->kernels, first))->skip > 0)
    {
      add (argv, "--launch-skip");
      g_ptr_array_add (
        argv, g_strdup_printf (
                "%u", ((WsCaptureKernel *) g_ptr_array_index (plan->kernels, first))->skip));
    }
  if (settings->ncu_sections != NULL)
    {
      g_auto (GStrv) sections = g_strsplit (settings->ncu_sections, ",", -1);

      for (guint i = 0; sections[i] != NULL; i++)
        if (g_strstrip (sections[i])[0] != '\0')
          {
            add (argv, "--section");
            add (argv, sections[i]);
          }
    }
  else
    {
      add (argv, "--set");
      add (argv, settings->ncu_set);
    }
  add (argv, "--cache-control");
  add (argv, settings->cache_control);
  add (argv, "--clock-control");
  add (argv, settings->clock_control);
  add (argv, "--target-processes");
  add (argv, "all");
  /* The kernels of a CUDA graph one by one, as the top N names them. */
  add (argv, "--graph-profiling");
  add (argv, "node");
  if (settings->nvtx_range != NULL)
    add (argv, "--nvtx");
  /* A communication kernel waits for its peers: kernel replay would run
   * it again alone and hang.  Only where the user asked for it is it here,
   * and then its whole range is replayed. */
  if (settings->ncu_comm_replay != NULL && has_communication (plan->kernels, first, n))
    {
      add (argv, "--replay-mode");
      add (argv, settings->ncu_comm_replay);
    }
  if (plan->launch != NULL)
    /* A job: ncu on the rank that runs the kernel most, the other ranks
     * run as they are. */
    command = command_new (
      plan,
      per_rank_argv (plan, argv,
                     (gint) ((WsCaptureKernel *) g_ptr_array_index (plan->kernels, first))->rank),
      plan->workdir);
  else
    {
      add_target (argv, plan);
      command = command_new (plan, argv, plan->workdir);
    }
  command->outputs = strv_of (rep, NULL);
  if (n == 1)
    command->kernel =
      g_strdup (((WsCaptureKernel *) g_ptr_array_index (plan->kernels, first))->name);
  else
    command->kernel = g_strdup_printf ("top %u", n);
  return command;
}

/* Step 6: the report as the raw CSV page, in base units. */
static WsCaptureCommand *
ncu_export (WsCapturePlan *plan, const char *file, const char *kernel)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *rep_name = g_strconcat (file, ".ncu-rep", NULL);
  g_autofree char *csv_name = g_strconcat (file, "_ncu_raw.csv", NULL);
  WsCaptureCommand *command;

  add (argv, plan->ncu);
  add (argv, "--import");
  g_ptr_array_add (argv, g_build_filename (plan->ncu_dir, rep_name, NULL));
  add (argv, "--csv");
  add (argv, "--page");
  add (argv, "raw");
  add (argv, "--print-units");
  add (argv, "base");
  /* The mangled name, which nsys records too: the reader joins each launch
   * to its nsys kernel exactly (ncu's default "function" form drops
   * namespaces and qualifiers, and parts of lambdas). */
  add (argv, "--print-kernel-base");
  add (argv, "mangled");

  command = command_new (plan, argv, plan->dir);
  command->stdout_path = g_build_filename (plan->ncu_dir, csv_name, NULL);
  command->outputs = strv_of (command->stdout_path, NULL);
  command->kernel = g_strdup (kernel);
  return command;
}

/**
 * ws_capture_plan_set_kernels:
 * @kernels: (transfer full) (element-type WsCaptureKernel): step 4's pick
 *
 * Fills steps 5 and 6: one ncu run and one export per kernel
 * (NCU_MULTI_RUN=1), or one of each for all kernels together, named after
 * the target.
 */
void
ws_capture_plan_set_kernels (WsCapturePlan *plan, GPtrArray *kernels)
{
  g_return_if_fail (plan != NULL && kernels != NULL);

  if (plan->kernels != kernels)
    {
      g_clear_pointer (&plan->kernels, g_ptr_array_unref);
      plan->kernels = kernels;
    }
  ws_capture_plan_refresh_ncu (plan);
}

/**
 * ws_capture_plan_refresh_ncu:
 *
 * Makes steps 5 and 6 anew from the plan's kernels, once the export has
 * said more of them (their launches to skip).
 */
void
ws_capture_plan_refresh_ncu (WsCapturePlan *plan)
{
  GPtrArray *kernels;

  g_return_if_fail (plan != NULL && plan->kernels != NULL);

  kernels = plan->kernels;
  g_ptr_array_set_size (plan->steps[WS_CAPTURE_STEP_NCU_PROFILE], 0);
  g_ptr_array_set_size (plan->steps[WS_CAPTURE_STEP_NCU_EXPORT], 0);
  if (kernels->len == 0)
    return;

  /* A communication kernel's range replay is a run of its own. */
  if (plan->settings->ncu_multi_run ||
      (plan->settings->ncu_comm_replay != NULL && has_communication (kernels, 0, kernels->len)))
    for (guint i = 0; i < kernels->len; i++)
      {
        const WsCaptureKernel *kernel = g_ptr_array_index (kernels, i);

        g_ptr_array_add (plan->steps[WS_CAPTURE_STEP_NCU_PROFILE],
                         ncu_profile (plan, i, 1, kernel->file));
        g_ptr_array_add (plan->steps[WS_CAPTURE_STEP_NCU_EXPORT],
                         ncu_export (plan, kernel->file, kernel->name));
      }
  else
    {
      WsCaptureCommand *profile = ncu_profile (plan, 0, kernels->len, plan->folder_name);

      g_ptr_array_add (plan->steps[WS_CAPTURE_STEP_NCU_PROFILE], profile);
      g_ptr_array_add (plan->steps[WS_CAPTURE_STEP_NCU_EXPORT],
                       ncu_export (plan, plan->folder_name, profile->kernel));
    }
}

/**
 * ws_capture_plan_pick_kernels:
 *
 * Step 4: picks the top TOPN kernels of the kernel summary that step 3
 * wrote, and fills steps 5 and 6 for them.
 *
 * Returns: %FALSE with @error set when the summary gives no kernel
 */
gboolean
ws_capture_plan_pick_kernels (WsCapturePlan *plan, GError **error)
{
  GPtrArray *kernels, *left_out;

  g_return_val_if_fail (plan != NULL, FALSE);

  g_clear_pointer (&plan->left_out, g_ptr_array_unref);
  plan->left_out = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_capture_kernel_free);
  /* Communication kernels stay only where the settings say how to replay
   * them. */
  left_out = plan->settings->ncu_comm_replay == NULL ? plan->left_out : NULL;
  kernels = plan->rank_csvs != NULL
              ? ws_capture_read_top_kernels_merged ((const char *const *) plan->rank_csvs,
                                                    plan->settings->topn, left_out,
                                                    &plan->kernels_total, error)
              : ws_capture_read_top_kernels (plan->kern_sum_csv, plan->settings->topn, left_out,
                                             &plan->kernels_total, error);
  if (kernels == NULL)
    return FALSE;
  if (kernels->len == 0)
    {
      g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_STEP_FAILED,
                   "%s: every kernel is a communication kernel, which ncu cannot replay alone "
                   "(NCU_COMM_REPLAY=range or --ncu-comm-replay range profiles them)",
                   plan->kern_sum_csv);
      g_ptr_array_unref (kernels);
      return FALSE;
    }
  ws_capture_plan_set_kernels (plan, kernels);
  return TRUE;
}

/**
 * ws_capture_choose_group:
 * @out_dir: the absolute output folder
 * @name: the group's name: the targets file's name (`targets` for
 *   targets.tsv) or the one asked for; made safe here
 * @folders: the target folders the run will create in the group
 * @group: (out) (transfer full): the group's name
 * @group_dir: (out) (transfer full): OUT/<group>, created
 *
 * An earlier run is never overwritten: when one of @folders exists in
 * OUT/<name> already, the group is `<name>-YYYYmmdd-HHMMSS` (then `-2`, …).
 */
gboolean
ws_capture_choose_group (const char *out_dir, const char *name, const char *const *folders,
                         char **group, char **group_dir, GError **error)
{
  g_autofree char *safe = ws_capture_safe_name (name);
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");

  g_return_val_if_fail (out_dir != NULL && name != NULL && folders != NULL, FALSE);

  for (guint attempt = 0; attempt < 1000; attempt++)
    {
      g_autofree char *candidate = attempt == 0 ? g_strdup (safe)
                                   : attempt == 1
                                     ? g_strdup_printf ("%s-%s", safe, stamp)
                                     : g_strdup_printf ("%s-%s-%u", safe, stamp, attempt);
      g_autofree char *dir = g_build_filename (out_dir, candidate, NULL);
      gboolean taken = FALSE;

      for (guint i = 0; folders[i] != NULL && !taken; i++)
        {
          g_autofree char *folder = g_build_filename (dir, folders[i], NULL);

          taken = g_file_test (folder, G_FILE_TEST_EXISTS);
        }
      if (taken)
        continue;
      if (g_mkdir_with_parents (dir, 0777) != 0)
        {
          int saved = errno;

          g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_IO, "%s: %s", dir,
                       g_strerror (saved));
          return FALSE;
        }
      *group = g_steal_pointer (&candidate);
      *group_dir = g_steal_pointer (&dir);
      return TRUE;
    }
  g_set_error (error, WS_CAPTURE_ERROR, WS_CAPTURE_ERROR_IO, "%s: no free folder name for %s",
               out_dir, safe);
  return FALSE;
}
