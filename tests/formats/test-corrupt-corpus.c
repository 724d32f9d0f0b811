/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>
#include <sys/resource.h>

#include "corrupt-corpus.h"
#include "ws-test-util.h"

#define TIME_BOUND_S 60
/* The largest resident size one run may reach, in KiB: the fixtures load
 * in about 60 MB; AddressSanitizer's shadow multiplies that. An input that
 * makes the program grow without bound (one /dev/zero grew to 10 GB) is
 * stopped by neither the time bound nor the status. */
#define MEMORY_BOUND_KIB (2 * 1024 * 1024)

/* The commands run over every file of the corpus; OUT is replaced by a
 * path in the output folder, BASE by a good export. */
static const char *const commands[][7] = {
  { "info", NULL },
  { "stats", "--report",
    "cuda_gpu_kern_sum,nvtx_sum,cuda_api_sum,cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum", NULL },
  { "stats", "--format", "csv", NULL },
  { "render", "--view", "bars", "-o", "OUT.png", NULL },
  { "gauges", "--format", "json", NULL },
  { "diagnose", "--format", "json", NULL },
  { "ranks", "--format", "csv", NULL },
  { "steps", "--format", "json", NULL },
  { "rollup", "--format", "csv", NULL },
  { "compare", "--format", "csv", "BASE", NULL },
  { "export", "--chrome-trace", "OUT.json", NULL },
  { "flame", NULL },
  { "digest", "-o", "OUT.wsdigest", NULL },
};

static char *corpus_dir;
static char *cache_dir;

/* Every file, every command: exit status 0 or 2 within the time bound; on
 * 2, one line that names the file; never a signal, never a sanitizer
 * report. */
static void
test_corpus (void)
{
  g_autofree char *probe = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
  g_autofree char *mordred = ws_test_data ("nsys", "v2021.2_mordred.sqlite", NULL);
  g_autofree char *mock = ws_test_data ("nsys", "v2026.1_nsysai_mock.sqlite", NULL);
  g_autofree char *pipit = ws_test_data ("nsys", "v2022.2_pipit_saxpy_mpi.sqlite", NULL);
  g_autofree char *kern =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *nvtx = ws_test_data ("nsys-stats", "v2025.3_h100_probe_nvtx_sum.csv", NULL);
  g_autofree char *console =
    ws_test_data ("nsys-stats", "v2025.3_h100_probe_cuda_gpu_kern_sum_console.txt", NULL);
  g_autofree char *ncu_raw = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  g_autofree char *ncu_details = ws_test_data ("ncu", "h100_probe_full_details.csv", NULL);
  g_autofree char *ncu_2019 = ws_test_data ("ncu", "gtx1080_microgpusim_raw_2019.csv", NULL);
  g_autofree char *ncu_log =
    ws_test_data ("ncu", "b200_superbench_cublaslt_full_details.log", NULL);
  g_autofree char *ncu_errors = ws_test_data ("ncu", "rtx5090_llmperf_raw_errors_only.csv", NULL);
  /* Damaged reports go through the nsys and ncu stand-ins, which replay
   * the real tools' errors. */
  g_autofree char *nsys_report =
    ws_test_data ("capture-h200", "probe", "nsys", "probe.nsys-rep", NULL);
  g_autofree char *ncu_report =
    ws_test_data ("capture-h200", "probe", "ncu", "strided_read.ncu-rep", NULL);
  const char *fixtures[] = { probe,   mordred,    mock,        pipit,       kern,
                             nvtx,    console,    ncu_raw,     ncu_details, ncu_2019,
                             ncu_log, ncu_errors, nsys_report, ncu_report,  NULL };
  g_autofree char *out_dir = ws_test_tmpdir ();
  g_autoptr (GString) before = g_string_new (NULL);
  g_autoptr (GString) after = g_string_new (NULL);
  g_autofree char *slowest = NULL;
  g_autofree char *largest = NULL;
  double slowest_s = 0;
  glong largest_kib = 0;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) files = ws_corrupt_corpus_generate (fixtures, probe, corpus_dir, &error);
  guint runs = 0, refused = 0, loaded = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (files->len, >, 70);
  /* What fuzzing found, as it was found. */
  {
    g_autofree char *found = ws_test_data ("fuzz-regressions", NULL);
    g_autoptr (GPtrArray) names = ws_test_list_dir (found);

    for (guint i = 0; i < names->len; i++)
      if (!g_str_has_suffix (g_ptr_array_index (names, i), ".md"))
        g_ptr_array_add (files, g_build_filename (found, g_ptr_array_index (names, i), NULL));
  }

  /* Nothing is written beside an input: the corpus's folder (and the
   * fixtures it was made from) are as they were after every run. */
  ws_test_listing (corpus_dir, before);
  for (guint f = 0; f < files->len; f++)
    for (gsize c = 0; c < G_N_ELEMENTS (commands); c++)
      if (ws_test_sampled (f + (guint) c))
        {
          const char *path = g_ptr_array_index (files, f);
          g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
          g_autofree char *what = NULL;
          gint64 started = g_get_monotonic_time ();
          struct rusage usage;
          glong peak_before;
          double seconds;
          WsTestRun run;

          g_assert_cmpint (getrusage (RUSAGE_CHILDREN, &usage), ==, 0);
          peak_before = usage.ru_maxrss;
          g_ptr_array_add (argv, g_strdup (ws_test_cli ()));
          for (guint k = 0; commands[c][k] != NULL; k++)
            {
              const char *arg = commands[c][k];

              if (g_str_has_prefix (arg, "OUT"))
                g_ptr_array_add (argv, g_strdup_printf ("%s/%u-%zu%s", out_dir, f, c, arg + 3));
              else if (g_str_equal (arg, "BASE"))
                g_ptr_array_add (argv, g_strdup (probe));
              else
                g_ptr_array_add (argv, g_strdup (arg));
            }
          g_ptr_array_add (argv, g_strdup (path));
          g_ptr_array_add (argv, NULL);
          what = g_strjoinv (" ", (char **) argv->pdata + 1);

          /* Every other file is read by three workers, however small
           * (docs/performance.md): the parallel reader meets the damage
           * too, not only the single scan. */
          if (f % 2 == 1)
            g_setenv ("WARPSCOPE_THREADS", "3", TRUE);
          else
            g_unsetenv ("WARPSCOPE_THREADS");
          ws_test_run_bounded ((const char *const *) argv->pdata, TIME_BOUND_S, &run);
          seconds = (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC;
          if (seconds > slowest_s)
            {
              slowest_s = seconds;
              g_free (slowest);
              slowest = g_strdup (what);
            }
          /* The children's peak only grows: a larger one is this run's. */
          g_assert_cmpint (getrusage (RUSAGE_CHILDREN, &usage), ==, 0);
          if (usage.ru_maxrss > peak_before && usage.ru_maxrss > largest_kib)
            {
              largest_kib = usage.ru_maxrss;
              g_free (largest);
              largest = g_strdup (what);
            }
          if (usage.ru_maxrss > MEMORY_BOUND_KIB)
            g_error ("%s: %ld KiB resident, over the bound of %d KiB", what, usage.ru_maxrss,
                     MEMORY_BOUND_KIB);
          /* A digest lists the export it could not read, and exits 1 (the
         * man page: one export failed), with the same one line. */
          if (run.status == 1 && g_str_equal (commands[c][0], "digest"))
            run.status = 2;
          if (run.timed_out || run.signal != 0 || (run.status != 0 && run.status != 2) ||
              strstr (run.err, "Sanitizer") != NULL || strstr (run.err, "runtime error:") != NULL)
            g_error ("%s %s (%s workers): status %d, signal %d, timed out %d, stderr: %.2000s",
                     commands[c][0], path, f % 2 == 1 ? "3" : "default", run.status, run.signal,
                     run.timed_out, run.err);
          if (run.status == 2)
            {
              /* One line, naming the file. */
              if (strstr (run.err, path) == NULL ||
                  strchr (run.err, '\n') != run.err + strlen (run.err) - 1)
                g_error ("%s %s: not one line naming the file: %.2000s", commands[c][0], path,
                         run.err);
              refused++;
            }
          else
            loaded++;
          runs++;
          ws_test_run_clear (&run);
        }
  g_unsetenv ("WARPSCOPE_THREADS");
  ws_test_listing (corpus_dir, after);
  g_assert_cmpstr (after->str, ==, before->str);
  g_test_message ("%u files x %zu commands, %u runs (one in %u): %u refused with a message, "
                  "%u loaded",
                  files->len, G_N_ELEMENTS (commands), runs, ws_test_sample_every (), refused,
                  loaded);
  g_test_message ("slowest: %.2f s (bound %d s): %s", slowest_s, TIME_BOUND_S, slowest);
  g_test_message ("largest: %ld KiB resident (bound %d KiB): %s", largest_kib, MEMORY_BOUND_KIB,
                  largest);
  ws_test_rmtree (out_dir);
  g_assert_cmpuint (refused, >, 0);
  g_assert_cmpuint (loaded, >, 0);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  corpus_dir = ws_test_tmpdir ();
  /* Conversions of the damaged reports go to a cache of the test's own. */
  {
    g_autofree char *cache = ws_test_tmpdir ();

    g_setenv ("XDG_CACHE_HOME", cache, TRUE);
    cache_dir = g_steal_pointer (&cache);
  }
  ws_test_use_stand_ins ();

  g_test_add_func ("/corrupt-corpus/every-command-ends-cleanly", test_corpus);

  status = g_test_run ();
  ws_test_rmtree (corpus_dir);
  ws_test_rmtree (cache_dir);
  g_free (corpus_dir);
  g_free (cache_dir);
  return status;
}
