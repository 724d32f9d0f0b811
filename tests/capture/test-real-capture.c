/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A capture made on a real H200 by `warpscope-cli capture`
 * (tests/data/capture-h200/README.md): what the window and the CLI read
 * from it against what the real tools wrote there. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "ws-ncu-match.h"
#include "ws-run-loader.h"
#include "ws-summary-table.h"
#include "ws-test-util.h"

static WsRun *
load_capture (void)
{
  g_autofree char *dir = ws_test_data ("capture-h200", "probe", NULL);
  const char *paths[] = { dir, NULL };
  g_autoptr (GError) error = NULL;
  WsRun *run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return run;
}

static int
compare_lines (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static char **
sorted_lines (const char *text)
{
  char **lines = g_strsplit (text, "\n", -1);

  qsort (lines, g_strv_length (lines), sizeof (char *), compare_lines);
  return lines;
}

/* The folder is one run: the export, its manifest, and the three ncu CSVs
 * matched to the export's kernels by their exact names. */
static void
test_folder_is_one_run (void)
{
  g_autoptr (WsRun) run = load_capture ();
  static const char *const profiled[] = { "barrier_heavy(float *, int)",
                                          "fma_heavy(float *, int, int)",
                                          "strided_read(const float *, float *, int, int)" };

  g_assert_cmpstr (run->prov.kind, ==, "capture-folder");
  g_assert_cmpstr (run->prov.capture_command, ==, "./probe");
  /* SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL */
  g_assert_cmpuint (run->kernels.n, ==, 336);
  g_assert_nonnull (run->ncu);
  g_assert_cmpuint (ws_ncu_results_n_launches (run->ncu), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const WsNcuMatch *match = ws_ncu_results_match (run->ncu, i);

      g_assert_cmpint (match->kind, ==, WS_NCU_MATCH_EXACT);
      g_assert_cmpstr (match->nsys_name, ==, profiled[i]);
    }
}

/* Our kernel summary equals the one the real `nsys stats` wrote during
 * the capture (rows of equal totals may come in any order). */
static void
test_stats_equal_nsys_stats (void)
{
  g_autoptr (WsRun) run = load_capture ();
  g_autoptr (WsSummary) summary = ws_stats_summary (run, WS_SUMMARY_KERN_SUM, WS_NAME_DEMANGLED);
  g_autoptr (GString) ours = g_string_new (NULL);
  g_autofree char *truth_path =
    ws_test_data ("capture-h200", "probe", "nsys", "probe_cuda_gpu_kern_sum.csv", NULL);
  g_autofree char *truth = NULL;
  g_auto (GStrv) a = NULL;
  g_auto (GStrv) b = NULL;

  ws_summary_table_write (summary, WS_FORMAT_CSV, ours);
  g_assert_true (g_file_get_contents (truth_path, &truth, NULL, NULL));
  a = sorted_lines (ours->str);
  b = sorted_lines (truth);
  g_assert_cmpuint (g_strv_length (a), ==, g_strv_length (b));
  for (guint i = 0; a[i] != NULL; i++)
    g_assert_cmpstr (a[i], ==, b[i]);
}

/* Gauges and verdicts from the base-unit raw exports, with their
 * thousands separators: barrier_heavy "593,984" ns, SM "87.82", DRAM
 * "3.75", L1 "90.11" the busiest unit → memory-bound (its SM figure is
 * its shared-memory traffic); strided_read SM "10.28", DRAM "79.87", L2
 * "95.28" the busiest → memory-bound. */
static void
test_gauges_and_verdicts (void)
{
  g_autoptr (WsRun) run = load_capture ();
  const WsGauges *barrier = ws_ncu_results_gauges (run->ncu, 0);
  const WsGauges *strided = ws_ncu_results_gauges (run->ncu, 2);

  g_assert_cmpfloat_with_epsilon (barrier->gauge[WS_GAUGE_DURATION].value, 593984, 1e-6);
  g_assert_cmpfloat_with_epsilon (barrier->gauge[WS_GAUGE_SM].value, 87.82, 1e-9);
  g_assert_cmpfloat_with_epsilon (barrier->gauge[WS_GAUGE_DRAM].value, 3.75, 1e-9);
  g_assert_cmpint (barrier->verdict, ==, WS_VERDICT_MEMORY);
  g_assert_cmpfloat_with_epsilon (strided->gauge[WS_GAUGE_SM].value, 10.28, 1e-9);
  g_assert_cmpfloat_with_epsilon (strided->gauge[WS_GAUGE_DRAM].value, 79.87, 1e-9);
  g_assert_cmpint (strided->verdict, ==, WS_VERDICT_MEMORY);
}

/* "path sha256" of every file below @dir, sorted: what must not change. */
static void
snapshot_into (const char *dir, const char *rel, GPtrArray *lines)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *sub = rel != NULL ? g_build_filename (rel, name, NULL) : g_strdup (name);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        snapshot_into (path, sub, lines);
      else
        {
          g_autofree char *sum = ws_test_file_sha256 (path);

          g_ptr_array_add (lines, g_strdup_printf ("%s %s", sub, sum));
        }
    }
}

static char *
snapshot (const char *dir)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  snapshot_into (dir, NULL, lines);
  g_ptr_array_sort (lines, compare_lines);
  g_ptr_array_add (lines, NULL);
  return g_strjoinv ("\n", (char **) lines->pdata);
}

static void
run_ok (const char *const *argv)
{
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
}

/* Watches @dir and every folder under it for anything written, made,
 * removed, renamed or chmod'ed: an inotify descriptor, read by
 * count_changes().  Root ignores `chmod a-w`; inotify sees root's writes
 * too, even a file made and removed again. */
static void
watch_tree (int fd, const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  g_assert_cmpint (inotify_add_watch (fd, dir,
                                      IN_CREATE | IN_DELETE | IN_MODIFY | IN_MOVED_FROM |
                                        IN_MOVED_TO | IN_ATTRIB | IN_CLOSE_WRITE),
                   >=, 0);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        watch_tree (fd, path);
    }
}

/* The events queued on @fd, each named in the test's log. */
static guint
count_changes (int fd)
{
  char buf[4096] __attribute__ ((aligned (__alignof__(struct inotify_event))));
  guint n = 0;
  ssize_t len;

  while ((len = read (fd, buf, sizeof buf)) > 0)
    for (char *p = buf; p < buf + len;)
      {
        const struct inotify_event *e = (const struct inotify_event *) (gpointer) p;

        g_test_message ("written in the capture folder: %s (mask 0x%x)",
                        e->len > 0 ? e->name : "(the folder)", e->mask);
        n++;
        p += sizeof (struct inotify_event) + e->len;
      }
  g_assert_true (len < 0 && errno == EAGAIN);
  return n;
}

/* Opening a capture folder, in the loader and with every reading command
 * of the CLI, writes nothing in it: the same files with the same bytes,
 * and not one write, creation or removal, even for a moment (inotify:
 * `chmod a-w` makes the folder read-only only for users other than root,
 * and the tests run as root in CI). */
static void
test_folder_read_only (void)
{
  g_autofree char *src = ws_test_data ("capture-h200", "probe", NULL);
  g_autofree char *tmp = ws_test_tmpdir ();
  g_autofree char *dir = g_build_filename (tmp, "probe", NULL);
  g_autofree char *db = g_build_filename (dir, "nsys", "probe.sqlite", NULL);
  g_autofree char *cp = g_find_program_in_path ("cp");
  g_autofree char *chmod = g_find_program_in_path ("chmod");
  const char *copy[] = { cp, "-R", src, dir, NULL };
  const char *lock[] = { chmod, "-R", "a-w", dir, NULL };
  const char *unlock[] = { chmod, "-R", "u+w", dir, NULL };
  const char *paths[] = { dir, NULL };
  const char *info[] = { ws_test_cli (), "info", dir, NULL };
  const char *stats[] = {
    ws_test_cli (), "stats", "--report", "cuda_gpu_kern_sum,nvtx_sum", db, NULL
  };
  const char *gauges[] = { ws_test_cli (), "gauges", "--format", "json", dir, NULL };
  const char *diagnose[] = { ws_test_cli (), "diagnose", dir, NULL };
  g_autofree char *before = NULL, *after = NULL;
  g_autoptr (GError) error = NULL;
  int fd = inotify_init1 (IN_NONBLOCK | IN_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  run_ok (copy);
  run_ok (lock);
  before = snapshot (dir);
  watch_tree (fd, dir);
  {
    g_autoptr (WsRun) run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);

    g_assert_no_error (error);
    g_assert_nonnull (ws_run_get_summary (run, WS_SUMMARY_KERN_SUM));
    g_assert_nonnull (run->ncu);
  }
  run_ok (info);
  run_ok (stats);
  run_ok (gauges);
  run_ok (diagnose);
  g_assert_cmpuint (count_changes (fd), ==, 0);
  close (fd);
  after = snapshot (dir);
  g_assert_cmpstr (before, ==, after);
  run_ok (unlock);
  ws_test_rmtree (tmp);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/real-capture/h200/folder-is-one-run", test_folder_is_one_run);
  g_test_add_func ("/real-capture/h200/stats-equal-nsys-stats", test_stats_equal_nsys_stats);
  g_test_add_func ("/real-capture/h200/gauges-and-verdicts", test_gauges_and_verdicts);
  g_test_add_func ("/real-capture/h200/folder-stays-read-only", test_folder_read_only);

  return g_test_run ();
}
