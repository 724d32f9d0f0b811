/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ws-test-util.h"

/* Issue 46, item 1: inputs whose size once made a command quadratic or
 * its memory grow many times the input, generated here from real files
 * and run by the real CLI.  Each command must end within a bound (a hang
 * guard, not a speed goal: the figures are in docs/performance.md) and
 * peak below a memory bound proportional to its input.  Under the
 * sanitizers (the stage that sets WS_TEST_SAMPLE > 1) the sizes are a
 * tenth, and memory is not bounded: AddressSanitizer's shadow and
 * quarantine are most of it. */

static char *tmp;

static gboolean
sanitized (void)
{
  return ws_test_sample_every () > 1;
}

static guint
scaled (guint n)
{
  return sanitized () ? n / 10 : n;
}

/* The peak @rss_kb below @bound_kb, where memory is measured. */
static void
assert_memory (glong rss_kb, glong bound_kb)
{
  if (!sanitized ())
    g_assert_cmpint (rss_kb, <, bound_kb);
}

/* Runs @args with output discarded; its exit status, and its peak
 * resident memory in KiB, within @bound_s seconds. */
static int
run_measured (const char *const *args, guint bound_s, glong *max_rss_kb)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  GPid pid;
  gint64 deadline = g_get_monotonic_time () + (gint64) bound_s * G_USEC_PER_SEC;
  struct rusage usage;
  int status = 0;

  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_async (NULL, (char **) argv->pdata, NULL,
                                G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
                                  G_SPAWN_STDERR_TO_DEV_NULL,
                                NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  for (;;)
    {
      pid_t done = wait4 (pid, &status, WNOHANG, &usage);

      g_assert_cmpint (done, >=, 0);
      if (done == pid)
        break;
      if (g_get_monotonic_time () > deadline)
        {
          kill (pid, SIGKILL);
          waitpid (pid, NULL, 0);
          g_error ("%s %s: still running after %u s", args[0], args[1], bound_s);
        }
      g_usleep (20000);
    }
  g_assert_false (WIFSIGNALED (status));
  *max_rss_kb = usage.ru_maxrss;
  g_test_message ("%s: exit %d, peak %ld KiB", args[0], WEXITSTATUS (status), usage.ru_maxrss);
  return WEXITSTATUS (status);
}

static glong
size_kb (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return (glong) (st.st_size / 1024);
}

/* A kernel summary CSV of 250,000 rows: one pass, memory a few times the file. */
static void
test_stats_many_rows (void)
{
  g_autofree char *path = g_build_filename (tmp, "many_cuda_gpu_kern_sum.csv", NULL);
  g_autoptr (GString) text =
    g_string_new ("Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),"
                  "StdDev (ns),Name\n");
  const char *const args[] = { "stats", path, NULL };
  guint n = scaled (250000);
  glong rss;

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "0.0,%u,3,%u.0,%u.0,999,%u,1.0,\"kernel_%u(float *, int)\"\n",
                            3000 + i, 1000 + i, 1000 + i, 1001 + i, i);
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  g_assert_cmpint (run_measured (args, 120, &rss), ==, 0);
  assert_memory (rss, 24 * size_kb (path) + 64 * 1024);
}

/* 5,000 rows that are not targets: each said, none looked up again and again. */
static void
test_targets_many_bad_rows (void)
{
  g_autofree char *path = g_build_filename (tmp, "targets.tsv", NULL);
  g_autofree char *out = g_build_filename (tmp, "capture-out", NULL);
  g_autoptr (GString) text = g_string_new ("NAME\tCMD\tWORKDIR\tENVS\n");
  const char *const args[] = { "capture", "--targets", path, "-o", out, NULL };
  glong rss;

  for (guint i = 0; i < 5000; i++)
    g_string_append_printf (text, "t%u\ttrue\n", i);
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  g_assert_cmpint (run_measured (args, 60, &rss), ==, 2);
  assert_memory (rss, 256 * 1024);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

/* A real two-rank digest whose steps SQL makes 100,000 a rank: the
 * heatmap of the ranks by step, and `ranks -f json`. */
static void
test_ranks_chart_many_steps (void)
{
  g_autofree char *r0 = ws_test_unxz ("multirank/rank0.sqlite.xz", tmp);
  g_autofree char *r1 = ws_test_unxz ("multirank/rank1.sqlite.xz", tmp);
  g_autofree char *digest = g_build_filename (tmp, "steps.wsdigest", NULL);
  g_autofree char *png = g_build_filename (tmp, "ranks.png", NULL);
  g_autofree char *sql = g_strdup_printf (
    "WITH RECURSIVE k (i) AS (SELECT 12 UNION ALL SELECT i + 1 FROM k WHERE i < %u)"
    " INSERT INTO steps SELECT s.rank_id, k.i, k.i, s.start_ns + (k.i - 11) * 134756377,"
    " s.end_ns + (k.i - 11) * 134756377, s.gpu_busy_ns, s.comm_ns, s.comm_hidden_ns, s.wait_ns,"
    " s.work_ns, 0 FROM k, steps s WHERE s.idx = 11",
    scaled (100000));
  const char *const make[] = { "digest", "-o", digest, r0, r1, NULL };
  const char *const render[] = { "render", "-v", "ranks", "-o", png, digest, NULL };
  const char *const json[] = { "ranks", "-f", "json", digest, NULL };
  glong rss;

  g_assert_cmpint (run_measured (make, 120, &rss), ==, 0);
  ws_test_sqlite_exec (digest, sql);
  g_assert_cmpint (ws_test_sqlite_count (digest, "steps"), ==, 2 * (gint64) (scaled (100000) + 1));
  g_assert_cmpint (run_measured (render, 60, &rss), ==, 0);
  assert_memory (rss, 256 * 1024);
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  /* Its JSON, one step's tree at a time. */
  g_assert_cmpint (run_measured (json, 60, &rss), ==, 0);
  assert_memory (rss, 320 * 1024);
}

/* 2,000 launches of a real ncu raw CSV (the full set, some 2,000 metrics
 * a launch), as JSON: one launch's tree at a time. */
static void
test_gauges_json_many_launches (void)
{
  g_autofree char *source = ws_test_data ("ncu", "h100_probe_full_raw.csv", NULL);
  g_autofree char *text = ws_test_read (source);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autofree char *path = g_build_filename (tmp, "many_raw.csv", NULL);
  g_autoptr (GString) out = g_string_new (NULL);
  const char *const args[] = { "gauges", "-f", "json", path, NULL };
  guint n_data = 0, n = scaled (2000);
  glong rss;

  /* The header, the units, then the launches again and again, each with
   * an ID of its own (the first cell). */
  g_string_append_printf (out, "%s\n%s\n", lines[0], lines[1]);
  while (lines[2 + n_data] != NULL && lines[2 + n_data][0] != '\0')
    n_data++;
  g_assert_cmpuint (n_data, >, 0);
  for (guint i = 0; i < n; i++)
    {
      const char *row = lines[2 + i % n_data];
      const char *rest = strchr (row + 1, '"');

      g_assert_nonnull (rest);
      g_string_append_printf (out, "\"%u%s\n", i, rest);
    }
  g_assert_true (g_file_set_contents (path, out->str, (gssize) out->len, NULL));
  g_assert_cmpint (run_measured (args, 120, &rss), ==, 0);
  assert_memory (rss, 4 * size_kb (path) + 64 * 1024);
}

/* A speedscope profile whose 200 frame names are 100 KB each: the names
 * are kept as their two ends, and the collapsed stacks stay small. */
static void
test_flame_huge_names (void)
{
  g_autofree char *path = g_build_filename (tmp, "huge.speedscope.json", NULL);
  g_autofree char *png = g_build_filename (tmp, "flame.png", NULL);
  g_autofree char *name = g_strnfill (100000, 'x');
  g_autoptr (GString) text = g_string_new (
    "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":[");
  const char *const collapsed[] = { "flame", path, NULL };
  const char *const render[] = { "render", "-v", "flame", "-o", png, path, NULL };
  glong rss;

  for (guint f = 0; f < 200; f++)
    g_string_append_printf (text, "%s{\"name\":\"f%u_%s\"}", f > 0 ? "," : "", f, name);
  g_string_append (text, "]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"p\",\"unit\":\"none\","
                         "\"startValue\":0,\"endValue\":2000,\"samples\":[");
  for (guint s = 0; s < 2000; s++)
    {
      g_string_append (text, s > 0 ? ",[" : "[");
      for (guint d = 0; d < 5 + s % 36; d++)
        g_string_append_printf (text, "%s%u", d > 0 ? "," : "", (s * 7 + d * 13) % 200);
      g_string_append_c (text, ']');
    }
  g_string_append (text, "],\"weights\":[");
  for (guint s = 0; s < 2000; s++)
    g_string_append (text, s > 0 ? ",1" : "1");
  g_string_append (text, "]}]}");
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  g_assert_cmpint (run_measured (collapsed, 60, &rss), ==, 0);
  assert_memory (rss, 512 * 1024);
  g_assert_cmpint (run_measured (render, 60, &rss), ==, 0);
  assert_memory (rss, 256 * 1024);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();
  g_test_add_func ("/big-inputs/stats-250000-csv-rows", test_stats_many_rows);
  g_test_add_func ("/big-inputs/capture-5000-bad-target-rows", test_targets_many_bad_rows);
  g_test_add_func ("/big-inputs/ranks-100000-steps", test_ranks_chart_many_steps);
  g_test_add_func ("/big-inputs/gauges-json-2000-launches", test_gauges_json_many_launches);
  g_test_add_func ("/big-inputs/flame-huge-frame-names", test_flame_huge_names);
  status = g_test_run ();
  ws_test_rmtree (tmp);
  return status;
}
