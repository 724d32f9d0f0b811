/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Opening Nsight reports: real subprocesses (warpscope-cli, and the nsys and
 * ncu stand-ins of tests/stand-ins, which replay what the real tools did
 * with the real reports of tests/data/capture-h200). */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include "ws-input.h"
#include "ws-ncu-match.h"
#include "ws-report-convert.h"
#include "ws-run-loader.h"
#include "ws-test-util.h"
#include "ws-tool-find.h"

/* This process's cache folder ($XDG_CACHE_HOME, read once by GLib), emptied
 * before each test; the CLI gets the same one. */
static char *cache_home;
static char *converted_dir;

typedef struct
{
  char *dir;   /* the user's folder, with copies of the real reports */
  char *nsys;  /* dir/probe.nsys-rep */
  char *ncu;   /* dir/strided_read.ncu-rep */
  char *calls; /* the stand-ins' log of their command lines */
  char *pids;  /* the stand-ins' process ids */
} Fixture;

static void
copy_into (const char *from, const char *to)
{
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (from, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (to, contents, len, NULL));
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autofree char *nsys = ws_test_data ("capture-h200", "probe", "nsys", "probe.nsys-rep", NULL);
  g_autofree char *ncu =
    ws_test_data ("capture-h200", "probe", "ncu", "strided_read.ncu-rep", NULL);
  g_autofree char *cache = ws_report_convert_cache_dir ();

  ws_test_rmtree (cache_home);
  g_assert_cmpint (g_mkdir_with_parents (cache_home, 0700), ==, 0);
  f->dir = ws_test_tmpdir ();
  f->nsys = g_build_filename (f->dir, "probe.nsys-rep", NULL);
  f->ncu = g_build_filename (f->dir, "strided_read.ncu-rep", NULL);
  copy_into (nsys, f->nsys);
  copy_into (ncu, f->ncu);
  f->calls = g_build_filename (cache_home, "calls.log", NULL);
  f->pids = g_build_filename (cache_home, "pids.log", NULL);
  /* Also for the tools that this process starts itself. */
  g_setenv ("WS_STANDIN_CALLS", f->calls, TRUE);
  g_setenv ("WS_STANDIN_PIDS", f->pids, TRUE);
  g_assert_cmpstr (cache, ==, converted_dir);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  /* Empty is unset for the stand-ins (unsetenv is for single threads). */
  g_setenv ("WS_STANDIN_CALLS", "", TRUE);
  g_setenv ("WS_STANDIN_PIDS", "", TRUE);
  g_setenv ("WS_NSYS_MODE", "", TRUE);
  ws_test_rmtree (f->dir);
  g_free (f->dir);
  g_free (f->nsys);
  g_free (f->ncu);
  g_free (f->calls);
  g_free (f->pids);
}

/* The lines of the stand-ins' call log: one per run of nsys or ncu. */
static guint
tool_calls (Fixture *f)
{
  g_autofree char *log = ws_test_read (f->calls);
  guint lines = 0;

  for (const char *p = log; p != NULL && *p != '\0'; p++)
    lines += *p == '\n';
  return lines;
}

/* What the cache folder holds, hidden temporary folders included. */
static GPtrArray *
cache_entries (void)
{
  if (!g_file_test (converted_dir, G_FILE_TEST_IS_DIR))
    return g_ptr_array_new_with_free_func (g_free);
  return ws_test_list_dir (converted_dir);
}

/* Runs warpscope-cli with PATH @path (the stand-ins first on the tests'
 * PATH when NULL), nsys and ncu looked for in @tool_path only
 * (WARPSCOPE_TOOL_PATH: whatever this machine has installed stays
 * hidden) and this process's cache folder. */
static int
run_cli_tools (const char *const *args, const char *path, const char *tool_path, char **out,
               char **err)
{
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autofree char *default_path = g_strconcat (stand_ins, ":", g_getenv ("PATH"), NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_auto (GStrv) env = g_get_environ ();
  g_autoptr (GError) error = NULL;
  int wait_status = 0;

  env = g_environ_setenv (env, "PATH", path != NULL ? path : default_path, TRUE);
  env = g_environ_setenv (env, WS_TOOL_PATH_ENV, tool_path, TRUE);
  env = g_environ_setenv (env, "XDG_CACHE_HOME", cache_home, TRUE);
  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_autofree char *ignored_out = NULL, *ignored_err = NULL;

  g_ptr_array_add (argv, NULL);
  /* Whatever is not asked for is dropped: standard output is TAP's. */
  g_spawn_sync (NULL, (char **) argv->pdata, env, G_SPAWN_DEFAULT, NULL, NULL,
                out != NULL ? out : &ignored_out, err != NULL ? err : &ignored_err, &wait_status,
                &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  return WEXITSTATUS (wait_status);
}

/* The same with the stand-ins as the only nsys and ncu, or with @path
 * (PATH without the stand-ins) and no nsys or ncu at all. */
static int
run_cli (const char *const *args, const char *path, char **out, char **err)
{
  g_autofree char *stand_ins = ws_test_stand_ins ();

  return run_cli_tools (args, path, path != NULL ? "" : stand_ins, out, err);
}

/* `info` from the "Events" line on: the rows of each kind of event. */
static const char *
events_part (const char *info)
{
  const char *events = strstr (info, "\nEvents");

  g_assert_nonnull (events);
  return events;
}

/* `info X.nsys-rep` converts the report with nsys export and counts what
 * `info` of the SQLite export the real nsys wrote beside it counts. */
static void
test_nsys_info_equals_export (Fixture *f, gconstpointer data)
{
  g_autofree char *sqlite = ws_test_data ("capture-h200", "probe", "nsys", "probe.sqlite", NULL);
  const char *report_args[] = { "info", f->nsys, NULL };
  const char *export_args[] = { "info", sqlite, NULL };
  const char *json_report[] = { "info", "--format", "json", f->nsys, NULL };
  const char *json_export[] = { "info", "--format", "json", sqlite, NULL };
  g_autofree char *out = NULL, *err = NULL, *truth = NULL, *truth_err = NULL;
  g_autofree char *jout = NULL, *jtruth = NULL;
  g_autofree char *calls = NULL;
  g_autofree char *expected_call = NULL;
  g_autofree char *cached = ws_report_convert_cache_path (f->nsys, WS_REPORT_TOOL_NSYS, NULL);
  g_autofree char *cached_name = g_path_get_basename (cached);

  g_assert_cmpint (run_cli (report_args, NULL, &out, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (run_cli (export_args, NULL, &truth, &truth_err), ==, 0);
  g_assert_cmpstr (events_part (out), ==, events_part (truth));
  /* SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL over the real export. */
  g_assert_cmpint (ws_test_sqlite_count (sqlite, "CUPTI_ACTIVITY_KIND_KERNEL"), ==, 336);
  g_assert_nonnull (strstr (out, "  kernels               336  CUPTI_ACTIVITY_KIND_KERNEL\n"));
  g_assert_nonnull (strstr (
    out, "Kind:           Nsight Systems report, read through its SQLite export (nsys export)\n"));

  g_assert_cmpint (run_cli (json_report, NULL, &jout, NULL), ==, 0);
  g_assert_cmpint (run_cli (json_export, NULL, &jtruth, NULL), ==, 0);
  g_assert_nonnull (strstr (jout, "\"kind\" : \"nsys-rep\""));
  g_assert_cmpstr (strstr (jout, "\"gpus\""), ==, strstr (jtruth, "\"gpus\""));

  /* nsys ran once, with its output in a temporary folder of the cache. */
  calls = ws_test_read (f->calls);
  expected_call =
    g_strdup_printf ("nsys export --type sqlite --output %s/.convert-", converted_dir);
  g_assert_true (g_str_has_prefix (calls, expected_call));
  g_assert_true (g_str_has_suffix (calls, "probe.nsys-rep\n"));
  g_assert_cmpuint (tool_calls (f), ==, 1);
  {
    g_autoptr (GPtrArray) entries = cache_entries ();

    g_assert_cmpuint (entries->len, ==, 1);
    g_assert_cmpstr (g_ptr_array_index (entries, 0), ==, cached_name);
    g_assert_true (g_str_has_prefix (cached_name, "probe-"));
    g_assert_true (g_str_has_suffix (cached_name, ".sqlite"));
  }
}

static int
compare_lines (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* `stats` of the report equals what the real `nsys stats` printed during
 * the capture (rows of equal totals may come in any order). */
static void
test_nsys_stats_equal_nsys_stats (Fixture *f, gconstpointer data)
{
  g_autofree char *truth_path =
    ws_test_data ("capture-h200", "probe", "nsys", "probe_cuda_gpu_kern_sum.csv", NULL);
  const char *args[] = { "stats", "--format", "csv", f->nsys, NULL };
  g_autofree char *out = NULL, *truth = NULL;
  g_auto (GStrv) a = NULL;
  g_auto (GStrv) b = NULL;

  g_assert_cmpint (run_cli (args, NULL, &out, NULL), ==, 0);
  g_assert_true (g_file_get_contents (truth_path, &truth, NULL, NULL));
  a = g_strsplit (out, "\n", -1);
  b = g_strsplit (truth, "\n", -1);
  qsort (a, g_strv_length (a), sizeof (char *), compare_lines);
  qsort (b, g_strv_length (b), sizeof (char *), compare_lines);
  g_assert_cmpuint (g_strv_length (a), ==, g_strv_length (b));
  for (guint i = 0; a[i] != NULL; i++)
    g_assert_cmpstr (a[i], ==, b[i]);
}

/* The ncu report opens to its one profiled launch, with the values of the
 * CSV that ncu --import printed for it: Duration "296,960" ns, SM
 * "10.28", Memory (DRAM gauge) "79.87", kernel strided_read. */
static void
test_ncu_report_gauges (Fixture *f, gconstpointer data)
{
  const char *paths[] = { f->ncu, NULL };
  const char *args[] = { "gauges", "--format", "csv", f->ncu, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_autofree char *out = NULL;
  const WsGauges *gauges;

  g_assert_no_error (error);
  g_assert_cmpstr (run->prov.kind, ==, "ncu-rep");
  g_assert_nonnull (run->ncu);
  g_assert_cmpuint (ws_ncu_results_n_launches (run->ncu), ==, 1);
  g_assert_cmpstr (ws_ncu_results_launch (run->ncu, 0)->kernel, ==,
                   "strided_read(const float *, float *, int, int)");
  gauges = ws_ncu_results_gauges (run->ncu, 0);
  g_assert_cmpfloat_with_epsilon (gauges->gauge[WS_GAUGE_DURATION].value, 296960, 1e-6);
  g_assert_cmpfloat_with_epsilon (gauges->gauge[WS_GAUGE_SM].value, 10.28, 1e-9);
  g_assert_cmpfloat_with_epsilon (gauges->gauge[WS_GAUGE_DRAM].value, 79.87, 1e-9);
  g_assert_cmpint (gauges->verdict, ==, WS_VERDICT_MEMORY);

  /* The command line: one launch row after the header. */
  g_assert_cmpint (run_cli (args, NULL, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "strided_read"));
  {
    g_auto (GStrv) lines = g_strsplit (out, "\n", -1);

    g_assert_cmpuint (g_strv_length (lines), ==, 3);
  }
}

/* A truncated report: one line naming the file with nsys's own error
 * (tests/data/tools, as the real nsys printed it), exit status 2, and
 * nothing left in the cache. */
static void
test_corrupt_nsys_report (Fixture *f, gconstpointer data)
{
  g_autofree char *trunc = g_build_filename (f->dir, "trunc.nsys-rep", NULL);
  g_autofree char *nsys_said = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *contents = NULL;
  const char *args[] = { "info", trunc, NULL };
  g_autofree char *out = NULL, *err = NULL;
  gsize len;

  {
    g_autofree char *said_path = ws_test_data ("tools", "nsys-2025.3.1_export_truncated.txt", NULL);

    g_assert_true (g_file_get_contents (said_path, &nsys_said, NULL, NULL));
  }
  g_assert_true (g_file_get_contents (f->nsys, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (trunc, contents, len / 3, NULL));
  expected = g_strdup_printf ("warpscope-cli: %s: nsys export failed: %s", trunc, nsys_said);
  g_assert_cmpint (run_cli (args, NULL, &out, &err), ==, 2);
  g_assert_cmpstr (err, ==, expected);
  g_assert_cmpuint (tool_calls (f), ==, 1);
  {
    g_autoptr (GPtrArray) entries = cache_entries ();

    g_assert_cmpuint (entries->len, ==, 0);
  }
}

/* The same for ncu, which prints its errors on standard output. */
static void
test_corrupt_ncu_report (Fixture *f, gconstpointer data)
{
  g_autofree char *text = g_build_filename (f->dir, "notes.ncu-rep", NULL);
  g_autofree char *expected = NULL;
  const char *args[] = { "gauges", text, NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_true (g_file_set_contents (text, "some notes\n", -1, NULL));
  /* ncu-2025.3.1_import_not_a_report.txt, its two ==ERROR== lines as one. */
  expected = g_strdup_printf ("warpscope-cli: %s: ncu --import failed: Failed to load report file "
                              "'%s'. The file is not an Nsight Compute profiler report.\n",
                              text, text);
  g_assert_cmpint (run_cli (args, NULL, &out, &err), ==, 2);
  g_assert_cmpstr (err, ==, expected);
  {
    g_autoptr (GPtrArray) entries = cache_entries ();

    g_assert_cmpuint (entries->len, ==, 0);
  }
}

/* Without nsys (PATH has none and neither have the install folders): what
 * to install, and the command that does the conversion by hand. */
static void
test_tool_missing (Fixture *f, gconstpointer data)
{
  const char *nsys_args[] = { "info", f->nsys, NULL };
  const char *ncu_args[] = { "gauges", f->ncu, NULL };
  g_autofree char *out = NULL, *err = NULL, *ncu_out = NULL, *ncu_err = NULL;
  g_autofree char *nsys_expected = NULL, *ncu_expected = NULL;
  g_autofree char *base = g_build_filename (f->dir, "probe", NULL);
  g_autofree char *ncu_base = g_build_filename (f->dir, "strided_read", NULL);
  nsys_expected = g_strdup_printf (
    "warpscope-cli: %s: an Nsight Systems report, and nsys was not found: install Nsight "
    "Systems (https://developer.nvidia.com/nsight-systems) or put nsys on PATH, or export it "
    "yourself: nsys export --type sqlite --output %s.sqlite %s\n",
    f->nsys, base, f->nsys);
  ncu_expected = g_strdup_printf (
    "warpscope-cli: %s: an Nsight Compute report, and ncu was not found: install Nsight "
    "Compute (https://developer.nvidia.com/nsight-compute) or put ncu on PATH, or export it "
    "yourself: ncu --import %s --csv --page raw --print-units base > %s_ncu_raw.csv\n",
    f->ncu, f->ncu, ncu_base);
  g_assert_cmpint (run_cli (nsys_args, "/nonexistent", &out, &err), ==, 2);
  g_assert_cmpstr (err, ==, nsys_expected);
  g_assert_cmpint (run_cli (ncu_args, "/nonexistent", &ncu_out, &ncu_err), ==, 2);
  g_assert_cmpstr (ncu_err, ==, ncu_expected);
}

/* WARPSCOPE_TOOL_PATH, where set, is the only place nsys and ncu are
 * looked for: the stand-ins first on PATH are not found when it names a
 * folder without them (and are not run), and are found there when it
 * names their folder while PATH does not hold them. */
static void
test_tool_path_honoured (Fixture *f, gconstpointer data)
{
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autofree char *on_path = g_strconcat (stand_ins, ":", g_getenv ("PATH"), NULL);
  g_autofree char *empty = g_build_filename (f->dir, "no-tools", NULL);
  const char *nsys_args[] = { "info", f->nsys, NULL };
  const char *ncu_args[] = { "gauges", f->ncu, NULL };
  g_autofree char *out = NULL, *err = NULL, *ncu_out = NULL, *ncu_err = NULL;
  g_autofree char *out2 = NULL, *err2 = NULL;

  g_assert_cmpint (g_mkdir_with_parents (empty, 0755), ==, 0);
  g_assert_cmpint (run_cli_tools (nsys_args, on_path, empty, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, ": an Nsight Systems report, and nsys was not found: "));
  g_assert_cmpint (run_cli_tools (ncu_args, on_path, empty, &ncu_out, &ncu_err), ==, 2);
  g_assert_nonnull (strstr (ncu_err, ": an Nsight Compute report, and ncu was not found: "));
  g_assert_cmpuint (tool_calls (f), ==, 0);

  g_assert_cmpint (run_cli_tools (nsys_args, "/usr/bin:/bin", stand_ins, &out2, &err2), ==, 0);
  g_assert_cmpuint (tool_calls (f), ==, 1);
}

/* A second open reuses the conversion without running the tool; a report
 * that changed is converted again, and its older conversion goes. */
static void
test_cache_reused (Fixture *f, gconstpointer data)
{
  const char *args[] = { "info", f->nsys, NULL };
  const char *ncu_args[] = { "gauges", f->ncu, NULL };
  g_autofree char *first = ws_report_convert_cache_path (f->nsys, WS_REPORT_TOOL_NSYS, NULL);
  g_autofree char *second = NULL;
  struct utimbuf later = { 1700000000, 1700000000 };

  g_assert_cmpint (run_cli (args, NULL, NULL, NULL), ==, 0);
  g_assert_cmpuint (tool_calls (f), ==, 1);
  g_assert_true (g_file_test (first, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpint (run_cli (args, NULL, NULL, NULL), ==, 0);
  g_assert_cmpuint (tool_calls (f), ==, 1);

  g_assert_cmpint (run_cli (ncu_args, NULL, NULL, NULL), ==, 0);
  g_assert_cmpuint (tool_calls (f), ==, 2);
  g_assert_cmpint (run_cli (ncu_args, NULL, NULL, NULL), ==, 0);
  g_assert_cmpuint (tool_calls (f), ==, 2);

  g_assert_cmpint (g_utime (f->nsys, &later), ==, 0);
  second = ws_report_convert_cache_path (f->nsys, WS_REPORT_TOOL_NSYS, NULL);
  g_assert_cmpstr (first, !=, second);
  g_assert_cmpint (run_cli (args, NULL, NULL, NULL), ==, 0);
  g_assert_cmpuint (tool_calls (f), ==, 3);
  g_assert_true (g_file_test (second, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (first, G_FILE_TEST_EXISTS));
  {
    g_autoptr (GPtrArray) entries = cache_entries ();

    /* The new export and the ncu CSV. */
    g_assert_cmpuint (entries->len, ==, 2);
  }
}

/* The first process id the stand-ins logged, once there is one. */
static GPid
wait_for_tool (Fixture *f)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < deadline)
    {
      g_autofree char *pids = ws_test_read (f->pids);

      if (pids != NULL && strchr (pids, '\n') != NULL)
        return (GPid) g_ascii_strtoll (pids, NULL, 10);
      g_usleep (20000);
    }
  g_assert_not_reached ();
  return 0;
}

typedef struct
{
  gboolean done;
  WsRun *run;
  GError *error;
  GPtrArray *phrases;
} AsyncLoad;

static void
async_progress (double fraction, const char *what, gpointer data)
{
  AsyncLoad *load = data;

  if (load->phrases->len == 0 ||
      !g_str_equal (g_ptr_array_index (load->phrases, load->phrases->len - 1), what))
    g_ptr_array_add (load->phrases, g_strdup (what));
}

static void
async_done (GObject *source, GAsyncResult *result, gpointer data)
{
  AsyncLoad *load = data;

  load->run = ws_run_load_finish (result, &load->error);
  load->done = TRUE;
}

/* Cancelling while nsys export runs ends the tool's whole process group
 * (the stand-in and the `sleep` it started) and leaves no file in the
 * cache; the half-written export never reaches its name. */
static void
test_cancel_leaves_nothing (Fixture *f, gconstpointer data)
{
  const char *paths[] = { f->nsys, NULL };
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  AsyncLoad load = { FALSE, NULL, NULL, g_ptr_array_new_with_free_func (g_free) };
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  GPid tool;

  g_setenv ("WS_NSYS_MODE", "hang", TRUE);
  ws_run_load_async (paths, WS_LOAD_ALL, cancellable, async_progress, &load, NULL, async_done,
                     &load);
  tool = wait_for_tool (f);
  /* It has started writing. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (load.phrases->len, >=, 1);
  g_assert_cmpstr (g_ptr_array_index (load.phrases, 0), ==,
                   "Converting probe.nsys-rep with nsys export…");
  g_assert_true (ws_test_group_alive (tool));
  g_cancellable_cancel (cancellable);
  while (!load.done)
    {
      g_main_context_iteration (NULL, FALSE);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    }
  g_assert_error (load.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (load.run);
  g_assert_false (ws_test_group_alive (tool));
  {
    g_autoptr (GPtrArray) entries = cache_entries ();

    g_assert_cmpuint (entries->len, ==, 0);
  }
  g_clear_error (&load.error);
  g_ptr_array_unref (load.phrases);
}

/* Ctrl+C on the command line does the same: the tool is in a process
 * group of its own, which the terminal's signal does not reach. */
static void
test_cli_interrupt_leaves_nothing (Fixture *f, gconstpointer data)
{
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autofree char *path = g_strconcat (stand_ins, ":", g_getenv ("PATH"), NULL);
  const char *argv[] = { ws_test_cli (), "info", f->nsys, NULL };
  g_auto (GStrv) env = g_get_environ ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) cli = NULL;
  g_autoptr (GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autofree char *err = NULL;
  GPid tool;

  env = g_environ_setenv (env, "PATH", path, TRUE);
  env = g_environ_setenv (env, "XDG_CACHE_HOME", cache_home, TRUE);
  env = g_environ_setenv (env, "WS_NSYS_MODE", "hang", TRUE);
  g_subprocess_launcher_set_environ (launcher, env);
  cli = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  tool = wait_for_tool (f);
  g_assert_true (ws_test_group_alive (tool));
  g_subprocess_send_signal (cli, SIGINT);
  g_subprocess_communicate_utf8 (cli, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (cli));
  g_assert_cmpint (g_subprocess_get_exit_status (cli), ==, 1);
  g_assert_false (ws_test_group_alive (tool));
  {
    g_autoptr (GPtrArray) entries = cache_entries ();

    g_assert_cmpuint (entries->len, ==, 0);
  }
}

/* When warpscope-cli dies (SIGKILL: nothing of it can run), the tool it
 * started dies with it; the stand-in's own `sleep`, a grandchild, is not
 * the tool and is ended here. */
static void
test_tool_dies_with_program (Fixture *f, gconstpointer data)
{
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autofree char *path = g_strconcat (stand_ins, ":", g_getenv ("PATH"), NULL);
  const char *argv[] = { ws_test_cli (), "info", f->nsys, NULL };
  g_auto (GStrv) env = g_get_environ ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) cli = NULL;
  g_autoptr (GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  GPid tool;

  env = g_environ_setenv (env, "PATH", path, TRUE);
  env = g_environ_setenv (env, "XDG_CACHE_HOME", cache_home, TRUE);
  env = g_environ_setenv (env, "WS_NSYS_MODE", "hang", TRUE);
  g_subprocess_launcher_set_environ (launcher, env);
  cli = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  tool = wait_for_tool (f);
  g_assert_true (ws_test_process_alive (tool));
  g_subprocess_force_exit (cli);
  g_subprocess_wait (cli, NULL, NULL);
  while (ws_test_process_alive (tool))
    {
      g_usleep (10000);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    }
  kill (-tool, SIGKILL);
}

/* The next conversion removes the temporary folder of a program that
 * died (named after its pid), and leaves those of live ones alone. */
static void
test_abandoned_folder_removed (Fixture *f, gconstpointer data)
{
  /* Above any pid_max Linux allows (2^22). */
  g_autofree char *dead = g_build_filename (converted_dir, ".convert-2147483600-abcdef", NULL);
  g_autofree char *dead_file = g_build_filename (dead, "probe.sqlite", NULL);
  g_autofree char *live_name = g_strdup_printf (".convert-%d-abcdef", (int) getpid ());
  g_autofree char *live = g_build_filename (converted_dir, live_name, NULL);
  const char *args[] = { "info", f->nsys, NULL };

  g_assert_cmpint (g_mkdir_with_parents (dead, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (live, 0700), ==, 0);
  g_assert_true (g_file_set_contents (dead_file, "half an export", -1, NULL));
  g_assert_cmpint (run_cli (args, NULL, NULL, NULL), ==, 0);
  g_assert_false (g_file_test (dead, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (live, G_FILE_TEST_IS_DIR));
  g_rmdir (live);
}

typedef struct
{
  char *name;
  char *sha256;
  gint64 mtime;
} Entry;

static void
entry_free (Entry *entry)
{
  g_free (entry->name);
  g_free (entry->sha256);
  g_free (entry);
}

/* Every file of @dir (one level) with its checksum and time. */
static GPtrArray *
snapshot (const char *dir)
{
  g_autoptr (GPtrArray) names = ws_test_list_dir (dir);
  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      Entry *entry = g_new0 (Entry, 1);
      GStatBuf st;

      g_assert_cmpint (g_stat (path, &st), ==, 0);
      entry->name = g_strdup (g_ptr_array_index (names, i));
      entry->sha256 = S_ISREG (st.st_mode) ? ws_test_file_sha256 (path) : g_strdup ("folder");
      entry->mtime = (gint64) st.st_mtime;
      g_ptr_array_add (entries, entry);
    }
  return entries;
}

/* Opening reports, as files and as a folder, converted or failing, writes
 * nothing into the user's folder and changes nothing there. */
static void
test_user_folder_unchanged (Fixture *f, gconstpointer data)
{
  g_autofree char *bad = g_build_filename (f->dir, "bad.ncu-rep", NULL);
  g_autoptr (GPtrArray) before = NULL;
  g_autoptr (GPtrArray) after = NULL;
  const char *runs[][5] = {
    { "info", f->nsys, NULL },  { "stats", f->nsys, NULL }, { "gauges", f->ncu, NULL },
    { "gauges", f->dir, NULL }, { "gauges", bad, NULL },
  };
  static const int statuses[] = { 0, 0, 0, 0, 2 };

  g_assert_true (g_file_set_contents (bad, "not a report\n", -1, NULL));
  before = snapshot (f->dir);
  for (gsize r = 0; r < G_N_ELEMENTS (runs); r++)
    g_assert_cmpint (run_cli (runs[r], NULL, NULL, NULL), ==, statuses[r]);
  after = snapshot (f->dir);
  /* nsys once, ncu for the good report and the bad one (twice). */
  g_assert_cmpuint (tool_calls (f), ==, 4);
  g_assert_cmpuint (before->len, ==, 3);
  g_assert_cmpuint (after->len, ==, before->len);
  for (guint i = 0; i < before->len; i++)
    {
      const Entry *a = g_ptr_array_index (before, i);
      const Entry *b = g_ptr_array_index (after, i);

      g_assert_cmpstr (a->name, ==, b->name);
      g_assert_cmpstr (a->sha256, ==, b->sha256);
      g_assert_cmpint (a->mtime, ==, b->mtime);
    }
}

/* A capture folder keeps its reports beside their exports: the exports
 * are read and no tool runs. */
static void
test_folder_with_exports_runs_no_tool (Fixture *f, gconstpointer data)
{
  g_autofree char *capture = ws_test_data ("capture-h200", "probe", NULL);
  g_autofree char *report = ws_test_data ("capture-h200", "probe", "nsys", "probe.nsys-rep", NULL);
  const char *paths[] = { capture, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;

  g_assert_true (g_file_test (report, G_FILE_TEST_IS_REGULAR));
  run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (run->kernels.n, ==, 336);
  g_assert_cmpuint (ws_ncu_results_n_launches (run->ncu), ==, 3);
  g_assert_cmpuint (tool_calls (f), ==, 0);
}

/* A folder of reports alone: both are converted, and the ncu launch is
 * matched to the nsys kernel of the same name. */
static void
test_folder_of_reports_converts (Fixture *f, gconstpointer data)
{
  const char *paths[] = { f->dir, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (run->prov.kind, ==, "capture-folder");
  g_assert_cmpuint (run->kernels.n, ==, 336);
  g_assert_cmpuint (ws_ncu_results_n_launches (run->ncu), ==, 1);
  g_assert_cmpint (ws_ncu_results_match (run->ncu, 0)->kind, ==, WS_NCU_MATCH_EXACT);
  g_assert_cmpstr (ws_ncu_results_match (run->ncu, 0)->nsys_name, ==,
                   "strided_read(const float *, float *, int, int)");
  g_assert_cmpuint (tool_calls (f), ==, 2);
}

/* In a folder, an ncu report that does not convert is left out with a
 * warning, as a CSV of only ncu errors is; the run stands. */
static void
test_folder_skips_bad_ncu_report (Fixture *f, gconstpointer data)
{
  g_autofree char *bad = g_build_filename (f->dir, "bad.ncu-rep", NULL);
  const char *paths[] = { f->dir, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;

  g_assert_true (g_file_set_contents (bad, "not a report\n", -1, NULL));
  run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ws_ncu_results_n_launches (run->ncu), ==, 1);
  g_assert_cmpuint (run->prov.warnings->len, ==, 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (run->prov.warnings, 0), "skipped "));
  g_assert_nonnull (strstr (g_ptr_array_index (run->prov.warnings, 0), "ncu --import failed"));
}

/* A capture folder of reports alone, opened where nsys and ncu are not on
 * PATH: the tools its run.json names (here the stand-ins, as the capture
 * ran them) convert them.  Before, nsys was "not found". */
static void
test_folder_uses_tools_of_run_json (Fixture *f, gconstpointer data)
{
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autofree char *nsys_tool = g_build_filename (stand_ins, "nsys", NULL);
  g_autofree char *ncu_tool = g_build_filename (stand_ins, "ncu", NULL);
  g_autofree char *manifest_src = ws_test_data ("capture-h200", "probe", "run.json", NULL);
  g_autofree char *target = g_build_filename (f->dir, "capture", "probe", NULL);
  g_autofree char *nsys_dir = g_build_filename (target, "nsys", NULL);
  g_autofree char *ncu_dir = g_build_filename (target, "ncu", NULL);
  g_autofree char *nsys_copy = g_build_filename (nsys_dir, "probe.nsys-rep", NULL);
  g_autofree char *ncu_copy = g_build_filename (ncu_dir, "strided_read.ncu-rep", NULL);
  g_autofree char *manifest = g_build_filename (target, "run.json", NULL);
  g_autofree char *text = NULL, *out = NULL, *err = NULL, *calls = NULL;
  g_autoptr (GString) edited = NULL;
  const char *args[] = { "info", target, NULL };
  g_assert_cmpint (g_mkdir_with_parents (nsys_dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (ncu_dir, 0755), ==, 0);
  copy_into (f->nsys, nsys_copy);
  copy_into (f->ncu, ncu_copy);
  /* The H200 capture's manifest, its tools where the stand-ins are. */
  text = ws_test_read (manifest_src);
  edited = g_string_new (text);
  g_assert_cmpint (g_string_replace (edited, "\"/tmp/probe/nsys\"", "\"@NSYS@\"", 1), ==, 1);
  /* By hand: the manifest names that ncu 7 times (grep -o
   * '"/usr/local/cuda/bin/ncu"' tests/data/capture-h200/probe/run.json). */
  g_assert_cmpint (g_string_replace (edited, "\"/usr/local/cuda/bin/ncu\"", "\"@NCU@\"", 0), ==, 7);
  g_string_replace (edited, "@NSYS@", nsys_tool, 0);
  g_string_replace (edited, "@NCU@", ncu_tool, 0);
  g_assert_true (g_file_set_contents (manifest, edited->str, -1, NULL));

  g_assert_cmpint (run_cli (args, "/usr/bin:/bin", &out, &err), ==, 0);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (out, "kernels               336"));
  calls = ws_test_read (f->calls);
  g_assert_nonnull (calls);
  g_assert_nonnull (strstr (calls, "nsys export"));
}

/* A capture folder sent by someone else never runs anything: a tool its
 * run.json names inside the folder itself, or under another name than
 * nsys, is not run; the report is refused as without nsys. */
static void
test_folder_never_runs_its_own_tool (Fixture *f, gconstpointer data)
{
  g_autofree char *manifest_src = ws_test_data ("capture-h200", "probe", "run.json", NULL);
  g_autofree char *target = g_build_filename (f->dir, "sent", "probe", NULL);
  g_autofree char *nsys_dir = g_build_filename (target, "nsys", NULL);
  g_autofree char *nsys_copy = g_build_filename (nsys_dir, "probe.nsys-rep", NULL);
  g_autofree char *planted = g_build_filename (target, "nsys", "nsys", NULL);
  g_autofree char *other = g_build_filename (f->dir, "helper", NULL);
  g_autofree char *marker = g_build_filename (f->dir, "pwned", NULL);
  g_autofree char *manifest = g_build_filename (target, "run.json", NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\ntouch '%s'\nexit 1\n", marker);
  g_autofree char *text = ws_test_read (manifest_src);
  const char *args[] = { "info", target, NULL };
  const char *const tools[] = { planted, other };
  g_assert_cmpint (g_mkdir_with_parents (nsys_dir, 0755), ==, 0);
  copy_into (f->nsys, nsys_copy);
  for (gsize i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      g_autoptr (GString) edited = g_string_new (text);
      g_autofree char *out = NULL, *err = NULL;

      g_assert_true (g_file_set_contents (tools[i], script, -1, NULL));
      g_assert_cmpint (g_chmod (tools[i], 0755), ==, 0);
      g_assert_cmpint (g_string_replace (edited, "\"/tmp/probe/nsys\"", "\"@NSYS@\"", 1), ==, 1);
      g_string_replace (edited, "@NSYS@", tools[i], 0);
      g_assert_true (g_file_set_contents (manifest, edited->str, -1, NULL));

      g_assert_cmpint (run_cli (args, "/usr/bin:/bin", &out, &err), ==, 2);
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, "nsys was not found"));
      g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
    }
}

typedef struct
{
  GPtrArray *phrases; /* each phrase once, in order */
  GArray *conversion; /* the fractions that came with the conversion's phrase */
} Progress;

static void
record_progress (double fraction, const char *what, gpointer data)
{
  Progress *progress = data;

  if (progress->phrases->len == 0 ||
      !g_str_equal (g_ptr_array_index (progress->phrases, progress->phrases->len - 1), what))
    g_ptr_array_add (progress->phrases, g_strdup (what));
  if (g_str_has_prefix (what, "Converting "))
    g_array_append_val (progress->conversion, fraction);
}

/* Progress: the conversion's phrase with nsys's own percentages (the real
 * output draws 1% to 100%, one update after each CR), then the reading. */
static void
test_progress_from_nsys (Fixture *f, gconstpointer data)
{
  const char *paths[] = { f->nsys, NULL };
  g_autoptr (GError) error = NULL;
  Progress progress = { g_ptr_array_new_with_free_func (g_free),
                        g_array_new (FALSE, FALSE, sizeof (double)) };
  g_autofree char *real_path = ws_test_data ("tools", "nsys-2025.3.1_export_progress.txt", NULL);
  g_autofree char *real = NULL;
  guint updates = 0;
  g_autoptr (WsRun) run = NULL;

  g_assert_true (g_file_get_contents (real_path, &real, NULL, NULL));
  for (const char *p = real; *p != '\0'; p++)
    updates += *p == '\r';
  g_assert_cmpuint (updates, ==, 100);

  run = ws_run_load (paths, WS_LOAD_ALL, NULL, record_progress, &progress, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (progress.phrases->len, >=, 2);
  g_assert_cmpstr (g_ptr_array_index (progress.phrases, 0), ==,
                   "Converting probe.nsys-rep with nsys export…");
  g_assert_true (g_str_has_prefix (g_ptr_array_index (progress.phrases, 1), "Reading "));
  /* 0 when it starts, each of nsys's updates, 1 when it is done. */
  g_assert_cmpuint (progress.conversion->len, ==, updates + 2);
  g_assert_cmpfloat (g_array_index (progress.conversion, double, 0), ==, 0.0);
  for (guint i = 1; i <= updates; i++)
    g_assert_cmpfloat_with_epsilon (g_array_index (progress.conversion, double, i), i / 100.0,
                                    1e-12);
  g_assert_cmpfloat (g_array_index (progress.conversion, double, updates + 1), ==, 1.0);
  g_ptr_array_unref (progress.phrases);
  g_array_unref (progress.conversion);
}

/* An nsys report opened with its own export is left out; an ncu report
 * joins the nsys report it is opened with. */
static void
test_grouping (Fixture *f, gconstpointer data)
{
  g_autofree char *sqlite = g_build_filename (f->dir, "probe.sqlite", NULL);
  const char *with_export[] = { f->nsys, sqlite, NULL };
  const char *with_ncu[] = { f->nsys, f->ncu, NULL };
  g_autoptr (GPtrArray) a = NULL;
  g_autoptr (GPtrArray) b = NULL;
  char **run;

  g_assert_true (g_file_set_contents (sqlite, "SQLite format 3", -1, NULL));
  a = ws_input_group_runs (with_export);
  g_assert_cmpuint (a->len, ==, 1);
  run = (char **) ((GPtrArray *) g_ptr_array_index (a, 0))->pdata;
  g_assert_cmpstr (run[0], ==, sqlite);
  g_assert_null (run[1]);

  b = ws_input_group_runs (with_ncu);
  g_assert_cmpuint (b->len, ==, 1);
  run = (char **) ((GPtrArray *) g_ptr_array_index (b, 0))->pdata;
  g_assert_cmpstr (run[0], ==, f->nsys);
  g_assert_cmpstr (run[1], ==, f->ncu);
  g_assert_null (run[2]);
}

int
main (int argc, char **argv)
{
  int status;

  /* Before anything asks GLib for the cache folder, which it reads once. */
  cache_home = ws_test_tmpdir ();
  g_setenv ("XDG_CACHE_HOME", cache_home, TRUE);
  ws_test_use_stand_ins ();
  {
    /* The stand-ins are the only nsys and ncu, also for the conversions
     * this process runs itself: an installed nsys or ncu stays hidden. */
    g_autofree char *stand_ins = ws_test_stand_ins ();

    g_setenv (WS_TOOL_PATH_ENV, stand_ins, TRUE);
  }
  g_test_init (&argc, &argv, NULL);
  converted_dir = g_build_filename (cache_home, "warpscope", "converted", NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/report-convert/nsys/info-equals-export", test_nsys_info_equals_export);
  ADD ("/report-convert/nsys/stats-equal-nsys-stats", test_nsys_stats_equal_nsys_stats);
  ADD ("/report-convert/nsys/progress-from-nsys", test_progress_from_nsys);
  ADD ("/report-convert/ncu/one-launch-with-csv-values", test_ncu_report_gauges);
  ADD ("/report-convert/corrupt/nsys-error-one-line", test_corrupt_nsys_report);
  ADD ("/report-convert/corrupt/ncu-error-one-line", test_corrupt_ncu_report);
  ADD ("/report-convert/tool-missing/says-what-to-install", test_tool_missing);
  ADD ("/report-convert/tool-path/only-its-folders", test_tool_path_honoured);
  ADD ("/report-convert/cache/reused-until-report-changes", test_cache_reused);
  ADD ("/report-convert/cancel/leaves-no-process-no-file", test_cancel_leaves_nothing);
  ADD ("/report-convert/cancel/cli-interrupt-leaves-nothing", test_cli_interrupt_leaves_nothing);
  ADD ("/report-convert/cancel/tool-dies-with-program", test_tool_dies_with_program);
  ADD ("/report-convert/cache/abandoned-folder-removed", test_abandoned_folder_removed);
  ADD ("/report-convert/user-folder/unchanged", test_user_folder_unchanged);
  ADD ("/report-convert/folder/exports-win-no-tool-runs", test_folder_with_exports_runs_no_tool);
  ADD ("/report-convert/folder/reports-alone-convert", test_folder_of_reports_converts);
  ADD ("/report-convert/folder/bad-ncu-report-skipped", test_folder_skips_bad_ncu_report);
  ADD ("/report-convert/folder/tools-of-its-run-json", test_folder_uses_tools_of_run_json);
  ADD ("/report-convert/folder/never-runs-its-own-tool", test_folder_never_runs_its_own_tool);
  ADD ("/report-convert/open/grouping", test_grouping);
#undef ADD

  status = g_test_run ();
  ws_test_rmtree (cache_home);
  g_free (cache_home);
  g_free (converted_dir);
  return status;
}
