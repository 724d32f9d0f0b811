/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every warpscope-cli command with every value of every option over the
 * fixtures: each run ends with exit status 0, 1 or 2 — never by a signal,
 * never with a sanitizer's report, never past its time bound — and no
 * fixture is changed or gets a file beside it.  In the ASan build this is
 * what would have caught `stats --name mangled` reading a column a lean
 * load never made.
 *
 * Three tiers keep it within a few minutes on two cores:
 *   A. every fixture (each export, ncu and nsys stats CSV, the capture
 *      folders, the GPT-2 capture): each command once with its defaults;
 *   B. a few small fixtures of each kind: each value of each option, one
 *      at a time;
 *   C. two small exports: the full products of stats' report × format ×
 *      name, compare's by × format, and the compare views × by × theme;
 * plus `capture` (with the stand-ins), `doctor` and `fetch` with each
 * option (a host that does not resolve: ssh fails at once), and the
 * commands of jobs and loops — `steps`, `ranks`, `digest` — with each
 * value of each option over the four-rank gloo job and the GPT-2 capture. */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ws-test-util.h"

/* A run that takes longer failed: the slowest take about 3 s in the ASan
 * build. */
#define RUN_BOUND_S 60

typedef struct
{
  GPtrArray *argv; /* of char *, NULL-terminated */
  char *cwd;
  GSubprocess *process;
  GSource *timeout;
  gint64 started;
  double seconds;
  gboolean timed_out;
  char *err;
} Job;

typedef struct
{
  GPtrArray *jobs;
  guint next;    /* the next job to start */
  guint running; /* jobs under way */
  guint done;
  guint parallel;
  GMainLoop *loop;
} Matrix;

static char *tmp;
static guint n_jobs_dir;

static void
job_free (Job *job)
{
  g_ptr_array_unref (job->argv);
  g_free (job->cwd);
  g_clear_object (&job->process);
  g_free (job->err);
  g_free (job);
}

/* A job in a folder of its own (outputs go there), from NULL-terminated
 * arguments after the command line's name. */
static void
add (Matrix *m, const char *first, ...)
{
  Job *job = g_new0 (Job, 1);
  va_list args;

  job->argv = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (job->argv, g_strdup (ws_test_cli ()));
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (job->argv, g_strdup (arg));
  va_end (args);
  g_ptr_array_add (job->argv, NULL);
  job->cwd = g_strdup_printf ("%s/job-%u", tmp, n_jobs_dir++);
  g_ptr_array_add (m->jobs, job);
}

/* Adds @base (NULL-terminated) with @extra (NULL-terminated) inserted
 * after the command and @files at the end. */
static void
add_v (Matrix *m, const char *const *base, const char *const *extra, const char *const *files)
{
  Job *job = g_new0 (Job, 1);

  job->argv = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (job->argv, g_strdup (ws_test_cli ()));
  g_ptr_array_add (job->argv, g_strdup (base[0]));
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (job->argv, g_strdup (extra[i]));
  for (guint i = 1; base[i] != NULL; i++)
    g_ptr_array_add (job->argv, g_strdup (base[i]));
  for (guint i = 0; files[i] != NULL; i++)
    g_ptr_array_add (job->argv, g_strdup (files[i]));
  g_ptr_array_add (job->argv, NULL);
  job->cwd = g_strdup_printf ("%s/job-%u", tmp, n_jobs_dir++);
  g_ptr_array_add (m->jobs, job);
}

static char *
job_line (const Job *job)
{
  g_autoptr (GString) line = g_string_new ("warpscope-cli");

  for (guint i = 1; i + 1 < job->argv->len; i++)
    {
      g_autofree char *quoted = g_shell_quote (g_ptr_array_index (job->argv, i));

      g_string_append_printf (line, " %s", quoted);
    }
  return g_string_free (g_steal_pointer (&line), FALSE);
}

static void start_jobs (Matrix *m);

static gboolean
kill_job (gpointer data)
{
  Job *job = data;

  job->timed_out = TRUE;
  g_subprocess_force_exit (job->process);
  return G_SOURCE_REMOVE;
}

typedef struct
{
  Matrix *m;
  Job *job;
} Finish;

static void
communicated (GObject *source, GAsyncResult *result, gpointer data)
{
  Finish *finish = data;
  Job *job = finish->job;
  Matrix *m = finish->m;
  g_autoptr (GBytes) err = NULL;
  g_autoptr (GError) error = NULL;

  g_subprocess_communicate_finish (G_SUBPROCESS (source), result, NULL, &err, &error);
  g_assert_no_error (error);
  g_subprocess_wait (job->process, NULL, NULL);
  job->seconds = (double) (g_get_monotonic_time () - job->started) / G_USEC_PER_SEC;
  /* An empty GBytes may hold no data pointer at all. */
  job->err = err != NULL && g_bytes_get_size (err) > 0
               ? g_strndup (g_bytes_get_data (err, NULL), g_bytes_get_size (err))
               : g_strdup ("");
  g_source_destroy (job->timeout);
  g_clear_pointer (&job->timeout, g_source_unref);
  g_free (finish);
  m->running--;
  m->done++;
  start_jobs (m);
}

static void
start_jobs (Matrix *m)
{
  while (m->running < m->parallel && m->next < m->jobs->len)
    {
      Job *job = g_ptr_array_index (m->jobs, m->next++);
      g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (
        G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
      g_autoptr (GError) error = NULL;
      Finish *finish = g_new0 (Finish, 1);

      g_assert_cmpint (g_mkdir_with_parents (job->cwd, 0755), ==, 0);
      g_subprocess_launcher_set_cwd (launcher, job->cwd);
      job->started = g_get_monotonic_time ();
      job->process =
        g_subprocess_launcher_spawnv (launcher, (const char *const *) job->argv->pdata, &error);
      g_assert_no_error (error);
      job->timeout = g_timeout_source_new_seconds (RUN_BOUND_S);
      g_source_set_callback (job->timeout, kill_job, job, NULL);
      g_source_attach (job->timeout, NULL);
      finish->m = m;
      finish->job = job;
      g_subprocess_communicate_async (job->process, NULL, NULL, communicated, finish);
      m->running++;
    }
  if (m->running == 0 && m->next == m->jobs->len)
    g_main_loop_quit (m->loop);
}

/* What went wrong with a finished run, or NULL. */
static char *
job_failure (const Job *job)
{
  if (job->timed_out)
    return g_strdup_printf ("killed after %d s", RUN_BOUND_S);
  if (g_subprocess_get_if_signaled (job->process))
    return g_strdup_printf ("ended by signal %d", g_subprocess_get_term_sig (job->process));
  if (g_subprocess_get_exit_status (job->process) > 2)
    return g_strdup_printf ("exit status %d", g_subprocess_get_exit_status (job->process));
  /* UBSan exits with 1 after its report; ASan and LSan with their own. */
  if (strstr (job->err, "Sanitizer") != NULL || strstr (job->err, "runtime error:") != NULL)
    return g_strdup ("a sanitizer's report");
  if (g_subprocess_get_exit_status (job->process) == 2 && job->err[0] == '\0')
    return g_strdup ("exit status 2 without a message");
  return NULL;
}

static int
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static GPtrArray *
files_in (const char *sub, const char *suffix)
{
  g_autofree char *dir = ws_test_data (sub, NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (suffix == NULL || g_str_has_suffix (name, suffix))
      g_ptr_array_add (files, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (files, compare_strings);
  return files;
}

static char *
unpack_gpt2 (void)
{
  g_autofree char *archive = ws_test_data ("captures", "h100_gpt2_capture.tar.xz", NULL);
  g_autofree char *tar = g_find_program_in_path ("tar");
  g_autofree char *into = g_build_filename (tmp, "gpt2", NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *argv[] = { tar, "-xJf", archive, "-C", into, NULL };

  g_assert_nonnull (tar);
  g_assert_cmpint (g_mkdir_with_parents (into, 0755), ==, 0);
  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  return g_build_filename (into, "out", "targets-20261125-023446", "GPT2__", NULL);
}

/* Tier A: each command once, with its defaults. */
static void
add_defaults (Matrix *m, const char *file)
{
  const char *one[] = { file, NULL };
  const char *two[] = { file, file, NULL };
  static const char *const commands[][6] = {
    { "info", NULL },
    { "stats", NULL },
    { "gauges", NULL },
    { "diagnose", NULL },
    { "render", "-o", "bars.png", NULL },
    { "render", "--view", "timeline", "-o", "timeline.png", NULL },
    { "render", "--view", "gauges", "-o", "gauges.png", NULL },
    { "render", "--view", "roofline", "-o", "roofline.png", NULL },
    { "render", "--view", "stalls", "-o", "stalls.png", NULL },
    { "render", "--view", "memory", "-o", "memory.png", NULL },
    { "rollup", NULL },
    { "steps", NULL },
    { "ranks", NULL },
    { "flame", NULL },
    { "render", "--view", "flame", "-o", "flame.png", NULL },
    { "export", "--chrome-trace", "trace.json", NULL },
  };

  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    add_v (m, commands[c], NULL, one);
  add_v (m, (const char *const[]){ "compare", NULL }, NULL, two);
}

/* Tier B: each value of each option, one at a time. */
static void
add_each_value (Matrix *m, const char *file)
{
  const char *one[] = { file, NULL };
  const char *two[] = { file, file, NULL };
  /* Every report, each argument a kernel report takes, and all reports at
   * once. */
  static const char *const reports[] = { "cuda_gpu_kern_sum",
                                         "nvtx_sum",
                                         "cuda_api_sum",
                                         "cuda_gpu_mem_time_sum",
                                         "cuda_gpu_mem_size_sum",
                                         "osrt_sum",
                                         "nvtx_gpu_proj_sum",
                                         "nvtx_kern_sum",
                                         "cuda_gpu_kern_gb_sum",
                                         "cuda_kern_exec_sum",
                                         "cuda_gpu_kern_sum:base",
                                         "cuda_gpu_kern_gb_sum:mangled",
                                         "cuda_kern_exec_sum:base",
                                         "nvtx_kern_sum:mangled",
                                         "cuda_gpu_kern_sum:nvtx-name",
                                         "cuda_kern_exec_sum:nvtx-name:base",
                                         "cuda_gpu_kern_sum,nvtx_sum,cuda_api_sum,"
                                         "cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum,osrt_sum,"
                                         "nvtx_gpu_proj_sum,nvtx_kern_sum,cuda_gpu_kern_gb_sum,"
                                         "cuda_kern_exec_sum,cuda_gpu_kern_sum:base" };
  static const char *const forms[] = { "demangled", "short", "mangled" };
  static const char *const bys[] = { "demangled", "short", "normalized" };
  static const char *const sorts[] = { "duration", "id",   "sm", "memory", "dram",
                                       "tensor",   "fp32", "l1", "l2",     "occupancy" };
  static const char *const views[] = { "bars",     "timeline", "flame", "gauges",
                                       "roofline", "stalls",   "memory" };
  static const char *const compare_views[] = { "compare", "compare-nvtx", "compare-gauges" };

  add_v (m, (const char *const[]){ "info", "--format", "table", NULL }, NULL, one);
  add_v (m, (const char *const[]){ "info", "--format", "json", NULL }, NULL, one);
  for (guint i = 0; i < G_N_ELEMENTS (reports); i++)
    add_v (m, (const char *const[]){ "stats", "--report", reports[i], NULL }, NULL, one);
  for (guint i = 0; i < 3; i++)
    {
      static const char *const formats[] = { "csv", "table", "md" };

      add_v (m, (const char *const[]){ "stats", "--format", formats[i], NULL }, NULL, one);
      add_v (m, (const char *const[]){ "stats", "--name", forms[i], NULL }, NULL, one);
      add_v (m, (const char *const[]){ "compare", "--by", bys[i], NULL }, NULL, two);
      add_v (m, (const char *const[]){ "compare", "--format", formats[i], NULL }, NULL, two);
    }
  for (guint i = 0; i < 3; i++)
    {
      static const char *const gauge_formats[] = { "table", "csv", "json" };
      static const char *const diagnose_formats[] = { "table", "json", "md" };

      add_v (m, (const char *const[]){ "gauges", "--format", gauge_formats[i], NULL }, NULL, one);
      add_v (m, (const char *const[]){ "rollup", "--format", gauge_formats[i], NULL }, NULL, one);
      add_v (m, (const char *const[]){ "diagnose", "--format", diagnose_formats[i], NULL }, NULL,
             one);
    }
  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    {
      add_v (
        m, (const char *const[]){ "render", "--view", views[v], "-o", "v.png", "--top", "1", NULL },
        NULL, one);
      add_v (m,
             (const char *const[]){ "render", "--view", views[v], "-o", "v.svg", "--theme", "dark",
                                    NULL },
             NULL, one);
      add_v (m,
             (const char *const[]){ "render", "--view", views[v], "-o", "v.pdf", "--theme", "light",
                                    "--size", "640x480", NULL },
             NULL, one);
    }
  add_v (m, (const char *const[]){ "render", "-o", "all.png", "--top", "0", NULL }, NULL, one);
  add_v (
    m, (const char *const[]){ "render", "--view", "timeline", "-o", "t.png", "--range", "", NULL },
    NULL, one);
  add_v (m,
         (const char *const[]){ "render", "--view", "timeline", "-o", "t.png", "--range", "0:1000",
                                NULL },
         NULL, one);
  add_v (m,
         (const char *const[]){ "render", "--view", "timeline", "-o", "t.png", "--size", "800x600",
                                NULL },
         NULL, one);
  for (guint s = 0; s < G_N_ELEMENTS (sorts); s++)
    add_v (m,
           (const char *const[]){ "render", "--view", "gauges", "-o", "g.png", "--sort", sorts[s],
                                  NULL },
           NULL, one);
  for (guint v = 3; v < G_N_ELEMENTS (views); v++)
    {
      add_v (
        m,
        (const char *const[]){ "render", "--view", views[v], "-o", "k.png", "--kernel", "0", NULL },
        NULL, one);
      add_v (m,
             (const char *const[]){ "render", "--view", views[v], "-o", "k.png", "--kernel",
                                    "99999", NULL },
             NULL, one);
    }
  for (guint v = 0; v < G_N_ELEMENTS (compare_views); v++)
    for (guint b = 0; b < G_N_ELEMENTS (bys); b++)
      add_v (m,
             (const char *const[]){ "render", "--view", compare_views[v], "-o", "c.png", "--by",
                                    bys[b], NULL },
             NULL, two);
  add_v (m,
         (const char *const[]){ "render", "--view", "compare-gauges", "-o", "c.png", "--kernel",
                                "no such kernel", NULL },
         NULL, two);
  add_v (m, (const char *const[]){ "export", "--chrome-trace", "t.json.gz", NULL }, NULL, one);
  add_v (m, (const char *const[]){ "export", "--markdown", "report.md", NULL }, NULL, one);
  add_v (m, (const char *const[]){ "export", "--csv-dir", "csv", NULL }, NULL, one);
}

/* Tier B for `flame`: each value of each option. */
static void
add_flame_values (Matrix *m, const char *file)
{
  const char *one[] = { file, NULL };
  static const char *const options[][5] = {
    { "--format", "collapsed", NULL },
    { "--format", "svg", "-o", "f.svg", NULL },
    { "--format", "png", "-o", "f.png", NULL },
    { "--format", "pdf", "-o", "f.pdf", NULL },
    { "--format", "png", NULL },
    { "--layout", "icicle", "-o", "f.png", NULL },
    { "--layout", "flame", "-o", "f.svg", NULL },
    { "--theme", "dark", "-o", "f.png", NULL },
    { "--search", "main", NULL },
    { "--search", "", NULL },
    { "--thread", "0", NULL },
    { "--thread", "no such thread", NULL },
    { "--range", "0:1000", NULL },
    { "--range", "", NULL },
    { "--profile", "1", NULL },
    { "--width", "1", "-o", "f.png", NULL },
    { "--width", "0", "-o", "f.png", NULL },
  };

  for (guint o = 0; o < G_N_ELEMENTS (options); o++)
    add_v (m, (const char *const[]){ "flame", NULL }, options[o], one);
}

/* Tier C: the full products. */
static void
add_products (Matrix *m, const char *file)
{
  const char *one[] = { file, NULL };
  const char *two[] = { file, file, NULL };
  static const char *const reports[] = { "cuda_gpu_kern_sum",     "nvtx_sum",
                                         "cuda_api_sum",          "cuda_gpu_mem_time_sum",
                                         "cuda_gpu_mem_size_sum", "osrt_sum",
                                         "cuda_gpu_kern_gb_sum",  "cuda_kern_exec_sum" };
  static const char *const formats[] = { "csv", "table", "md" };
  static const char *const forms[] = { "demangled", "short", "mangled" };
  static const char *const bys[] = { "demangled", "short", "normalized" };
  static const char *const views[] = { "compare", "compare-nvtx", "compare-gauges" };
  static const char *const themes[] = { "light", "dark" };

  for (guint r = 0; r < G_N_ELEMENTS (reports); r++)
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
      for (guint n = 0; n < G_N_ELEMENTS (forms); n++)
        add_v (m,
               (const char *const[]){ "stats", "--report", reports[r], "--format", formats[f],
                                      "--name", forms[n], NULL },
               NULL, one);
  for (guint b = 0; b < G_N_ELEMENTS (bys); b++)
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
      add_v (m, (const char *const[]){ "compare", "--by", bys[b], "--format", formats[f], NULL },
             NULL, two);
  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    for (guint b = 0; b < G_N_ELEMENTS (bys); b++)
      for (guint t = 0; t < G_N_ELEMENTS (themes); t++)
        add_v (m,
               (const char *const[]){ "render", "--view", views[v], "--by", bys[b], "--theme",
                                      themes[t], "--top", "1", "-o", "c.svg", NULL },
               NULL, two);
}

/* capture with the stand-ins (each option once), doctor and fetch. */
static void
add_capture (Matrix *m, const char *h200)
{
  g_autofree char *targets = g_build_filename (tmp, "targets.tsv", NULL);
  g_autoptr (GPtrArray) fixtures = files_in ("targets", ".tsv");
  static const char *const options[][6] = {
    { NULL },
    { "--only", "probe", NULL },
    { "--topn", "1", NULL },
    { "--launch-count", "1", NULL },
    { "--single-ncu-run", NULL },
    { "--continue-on-error", NULL },
    { "--nvtx-range", "step@main", NULL },
    { "--ncu-set", "basic", NULL },
    { "--ncu-sections", "SpeedOfLight,Occupancy", NULL },
    { "--group", "g", NULL },
    { "--log", "run.log", NULL },
    { "--nsys", "/nonexistent/nsys", NULL },
    { "--ncu", "/nonexistent/ncu", NULL },
    { "--only", "no-such-target", NULL },
    { "--host", "nonexistent.invalid", NULL },
    { "--host", "nonexistent.invalid", "--remote-dir", "/tmp/x", NULL },
    { "--remote-dir", "/tmp/x", NULL },
    { "--leave-reports", NULL },
    { "--bwlimit", "1", NULL },
  };

  g_assert_true (
    g_file_set_contents (targets, "NAME\tCMD\tWORKDIR\tENVS\nprobe\ttrue\t-\t-\n", -1, NULL));
  for (guint o = 0; o < G_N_ELEMENTS (options); o++)
    add_v (m, (const char *const[]){ "capture", "--targets", targets, "--out", "out", NULL },
           options[o], (const char *const[]){ NULL });
  for (guint f = 0; f < fixtures->len; f++)
    {
      const char *file = g_ptr_array_index (fixtures, f);

      /* Its row on user@10.0.0.5:2222 waits for a connection that never
       * comes, as long as ssh's connect timeout: its other rows only. */
      if (g_str_has_suffix (file, "/with_hosts.tsv"))
        add (m, "capture", "--targets", file, "--out", "out", "--only", "local_run,on_gpu1,no_host",
             NULL);
      else
        add (m, "capture", "--targets", file, "--out", "out", NULL);
    }
  add (m, "doctor", NULL);
  add (m, "doctor", "--out", "out", "--ncu-set", "basic", NULL);
  add (m, "doctor", "--nsys", "/nonexistent/nsys", "--ncu", "/nonexistent/ncu", NULL);
  add (m, "doctor", "--host", "nonexistent.invalid", "--remote-dir", "x", NULL);
  add (m, "doctor", "--remote-dir", "x", NULL);
  /* fetch (issue 22): a host that does not resolve, a folder that is not
   * a remote capture, none. */
  add (m, "fetch", NULL);
  add (m, "fetch", "--bwlimit", "1", "/nonexistent", NULL);
  add (m, "fetch", h200, NULL);
}

/* `steps`, `ranks` and `digest`: each value of each option, over a job
 * of four ranks (@job: a folder of rank0..3.sqlite) and the GPT-2 capture
 * folder (@gpt2, steps named "训练步 N"). */
static void
add_job_commands (Matrix *m, const char *job, const char *gpt2, const char *probe)
{
  const char *on_job[] = { job, NULL };
  const char *on_gpt2[] = { gpt2, NULL };
  g_autofree char *rank0 = g_build_filename (job, "rank0.sqlite", NULL);
  g_autofree char *rank1 = g_build_filename (job, "rank1.sqlite", NULL);
  g_autofree char *glob = g_build_filename (job, "rank*.sqlite", NULL);
  const char *two_ranks[] = { rank0, rank1, NULL };
  const char *globbed[] = { glob, NULL };
  static const char *const step_formats[] = { "table", "csv", "md", "json" };
  static const char *const rank_formats[] = { "table", "csv", "json" };
  static const char *const ranks[] = { "0", "3", "0,2", "0-3", "1-2", "9", "3-1", "x", "" };
  static const char *const step_ranges[] = { "step", "训练步", "no such range", "" };
  static const char *const pids[] = { "0", "1", "999999", "-1", "x" };

  for (guint i = 0; i < G_N_ELEMENTS (step_formats); i++)
    {
      add_v (m, (const char *const[]){ "steps", "--format", step_formats[i], NULL }, NULL, on_job);
      add_v (m, (const char *const[]){ "steps", "--format", step_formats[i], NULL }, NULL, on_gpt2);
    }
  for (guint i = 0; i < G_N_ELEMENTS (step_ranges); i++)
    {
      add_v (m, (const char *const[]){ "steps", "--range", step_ranges[i], NULL }, NULL, on_job);
      add_v (m, (const char *const[]){ "steps", "--range", step_ranges[i], NULL }, NULL, on_gpt2);
    }
  for (guint i = 0; i < G_N_ELEMENTS (pids); i++)
    add_v (m, (const char *const[]){ "steps", "--pid", pids[i], NULL }, NULL, on_gpt2);
  for (guint i = 0; i < G_N_ELEMENTS (rank_formats); i++)
    {
      add_v (m, (const char *const[]){ "ranks", "--format", rank_formats[i], NULL }, NULL, on_job);
      add_v (m, (const char *const[]){ "ranks", "--format", rank_formats[i], NULL }, NULL,
             two_ranks);
    }
  for (guint i = 0; i < G_N_ELEMENTS (ranks); i++)
    {
      add_v (m, (const char *const[]){ "ranks", "--rank", ranks[i], NULL }, NULL, on_job);
      add_v (m, (const char *const[]){ "steps", "--rank", ranks[i], NULL }, NULL, on_job);
      add_v (m, (const char *const[]){ "stats", "--rank", ranks[i], NULL }, NULL, on_job);
      add_v (m, (const char *const[]){ "diagnose", "--rank", ranks[i], NULL }, NULL, on_job);
    }
  add_v (m, (const char *const[]){ "ranks", NULL }, NULL, globbed);
  add_v (m, (const char *const[]){ "render", "--view", "ranks", "-o", "r.png", NULL }, NULL,
         on_job);
  add_v (m, (const char *const[]){ "render", "--view", "steps", "-o", "s.png", NULL }, NULL,
         on_gpt2);
  add_v (m, (const char *const[]){ "render", "--view", "ranks", "-o", "r.png", NULL }, NULL,
         (const char *const[]){ probe, NULL });

  add_v (m, (const char *const[]){ "digest", NULL }, NULL, on_job);
  add_v (m, (const char *const[]){ "digest", "-o", "job.wsdigest", NULL }, NULL, on_job);
  add_v (m, (const char *const[]){ "digest", "-o", "job.wsdigest", "-j", "1", NULL }, NULL, on_job);
  add_v (m, (const char *const[]){ "digest", "-o", "job.wsdigest", "-j", "3", "-v", NULL }, NULL,
         on_job);
  add_v (m, (const char *const[]){ "digest", "-o", "job.wsdigest", "-j", "0", NULL }, NULL, on_job);
  add_v (m, (const char *const[]){ "digest", "-o", "job.wsdigest", "-j", "x", NULL }, NULL, on_job);
  add_v (m, (const char *const[]){ "digest", "-o", "two.wsdigest", NULL }, NULL, two_ranks);
  add_v (m, (const char *const[]){ "digest", "-o", "g.wsdigest", NULL }, NULL, globbed);
  add_v (m, (const char *const[]){ "digest", "-o", "p.wsdigest", NULL }, NULL,
         (const char *const[]){ probe, NULL });
  add_v (m, (const char *const[]){ "digest", "-o", "n.wsdigest", NULL }, NULL,
         (const char *const[]){ "/nonexistent/job", NULL });
}

static void
test_matrix (void)
{
  g_autofree char *nsys_dir = ws_test_data ("nsys", NULL);
  g_autofree char *data = g_path_get_dirname (nsys_dir);
  g_autoptr (GString) before = g_string_new (NULL), after = g_string_new (NULL);
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *gpt2 = NULL;
  g_autofree char *gloo = NULL;
  g_autofree char *mordred = ws_test_data ("nsys", "v2021.2_mordred.sqlite", NULL);
  g_autofree char *probe = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *torch = ws_test_data ("nsys", "v2025.3_h100_torch_train.sqlite", NULL);
  g_autofree char *h200 = ws_test_data ("capture-h200", "probe", NULL);
  g_autofree char *ncu = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  g_autofree char *details = ws_test_data ("ncu", "h100_probe_full_details.csv", NULL);
  g_autofree char *kern_sum =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *nvprof = ws_test_data ("nvprof", "nvvp_tf_tutorial_mnist_titanx.nvvp", NULL);
  g_autofree char *speedscope = ws_test_data ("cpu", "speedscope_pyinstrument_molehill.json", NULL);
  const char *small[] = { mordred, probe, h200, ncu, details, kern_sum, nvprof };
  Matrix m = { 0 };
  guint by_status[3] = { 0, 0, 0 }, failures = 0;
  const Job *slowest = NULL;
  gint64 started = g_get_monotonic_time ();
  static const char *const dirs[] = { "nsys", "ncu",   "nsys-stats", "fuzz-regressions",
                                      "cpu",  "nvprof" };

  tmp = ws_test_tmpdir ();
  ws_test_use_stand_ins ();
  ws_test_listing (data, before);
  gpt2 = unpack_gpt2 ();
  gloo = g_build_filename (tmp, "gloo-job", NULL);
  g_assert_cmpint (g_mkdir_with_parents (gloo, 0755), ==, 0);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank/rank%u.sqlite.xz", r);

      g_free (ws_test_unxz (xz, gloo));
    }

  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autoptr (GPtrArray) files = files_in (dirs[d], NULL);

      for (guint i = 0; i < files->len; i++)
        if (!g_str_has_suffix (g_ptr_array_index (files, i), ".md"))
          g_ptr_array_add (all, g_strdup (g_ptr_array_index (files, i)));
    }
  g_ptr_array_add (all, g_strdup (h200));
  g_ptr_array_add (all, g_strdup (gpt2));

  m.jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) job_free);
  for (guint i = 0; i < all->len; i++)
    add_defaults (&m, g_ptr_array_index (all, i));
  for (guint i = 0; i < G_N_ELEMENTS (small); i++)
    add_each_value (&m, small[i]);
  add_flame_values (&m, probe);
  add_flame_values (&m, speedscope);
  add_products (&m, mordred);
  add_products (&m, torch);
  add_capture (&m, h200);
  add_job_commands (&m, gloo, gpt2, probe);

  /* The sanitizer stage takes a deterministic sample (WS_TEST_SAMPLE). */
  {
    GPtrArray *kept = g_ptr_array_new_with_free_func ((GDestroyNotify) job_free);

    g_ptr_array_set_free_func (m.jobs, NULL);
    for (guint i = 0; i < m.jobs->len; i++)
      if (ws_test_sampled (i))
        g_ptr_array_add (kept, g_ptr_array_index (m.jobs, i));
      else
        job_free (g_ptr_array_index (m.jobs, i));
    g_test_message ("%u of %u runs: one in %u", kept->len, m.jobs->len, ws_test_sample_every ());
    g_ptr_array_unref (m.jobs);
    m.jobs = kept;
  }
  m.parallel = MAX (2, g_get_num_processors ());
  m.loop = g_main_loop_new (NULL, FALSE);
  start_jobs (&m);
  g_main_loop_run (m.loop);
  g_main_loop_unref (m.loop);

  for (guint i = 0; i < m.jobs->len; i++)
    {
      const Job *job = g_ptr_array_index (m.jobs, i);
      g_autofree char *failure = job_failure (job);

      if (failure != NULL)
        {
          g_autofree char *line = job_line (job);

          g_printerr ("FAILED (%s, %.1f s): %s\n%s\n", failure, job->seconds, line, job->err);
          failures++;
          continue;
        }
      by_status[g_subprocess_get_exit_status (job->process)]++;
      if (g_getenv ("WS_MATRIX_VERBOSE") != NULL &&
          g_subprocess_get_exit_status (job->process) != 0)
        {
          g_autofree char *line = job_line (job);

          g_printerr ("exit %d: %s\n  %s", g_subprocess_get_exit_status (job->process), line,
                      job->err);
        }
      if (slowest == NULL || job->seconds > slowest->seconds)
        slowest = job;
    }
  {
    g_autofree char *line = slowest != NULL ? job_line (slowest) : g_strdup ("");

    g_test_message ("%u runs over %u fixtures in %.0f s: %u exit 0, %u exit 1, %u exit 2, %u "
                    "failed; slowest %.2f s: %s",
                    m.jobs->len, all->len,
                    (double) (g_get_monotonic_time () - started) / G_USEC_PER_SEC, by_status[0],
                    by_status[1], by_status[2], failures, slowest != NULL ? slowest->seconds : 0,
                    line);
  }
  g_assert_cmpuint (failures, ==, 0);
  g_assert_cmpuint (by_status[0], >, 0);

  /* Nothing was written into the fixtures' folders. */
  ws_test_listing (data, after);
  if (!g_str_equal (after->str, before->str))
    {
      g_auto (GStrv) a = g_strsplit (before->str, "\n", -1);
      g_auto (GStrv) b = g_strsplit (after->str, "\n", -1);

      for (guint i = 0; a[i] != NULL; i++)
        if (!g_strv_contains ((const char *const *) b, a[i]))
          g_printerr ("before only: %s\n", a[i]);
      for (guint i = 0; b[i] != NULL; i++)
        if (!g_strv_contains ((const char *const *) a, b[i]))
          g_printerr ("after only: %s\n", b[i]);
    }
  g_assert_cmpstr (after->str, ==, before->str);

  g_ptr_array_unref (m.jobs);
  ws_test_rmtree (tmp);
  g_clear_pointer (&tmp, g_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/option-matrix/every-command-option-and-fixture/ends-0-1-or-2", test_matrix);
  return g_test_run ();
}
