/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-kineto-reader.h"
#include "ws-lanes.h"
#include "ws-ranks-loader.h"
#include "ws-run.h"
#include "ws-test-util.h"

/* Issue 33, item 3: the PyTorch profiler traces of one job open as one
 * job.  tests/data/kineto/captures/ddp2_rank{0,1}.json.gz are a 2-rank
 * NCCL DDP run on two H200s whose rank 1 sleeps 25 ms in `data` each step;
 * tests/ranks/kineto-ranks.py finds the straggler from the JSON alone (the
 * ranks' arrivals at each step's first all-reduce on the shared trace
 * clock), and `warpscope-cli ranks --format csv` must agree: over the two
 * files, their folder, a glob, and a digest of them made with threads and
 * with MPI. */

static char *tmp;

static char *
trace (const char *name)
{
  return ws_test_data ("kineto", "captures", name, NULL);
}

/* kineto-ranks.py's lines over the traces @names, split at tabs; NULL (the
 * test skipped) without python3 or the traces. */
static GPtrArray *
truths_of (const char *const *names)
{
  const char *srcdir = g_getenv ("G_TEST_SRCDIR");
  g_autofree char *script = g_build_filename (srcdir != NULL ? srcdir : SOURCE_DIR "/tests",
                                              "ranks", "kineto-ranks.py", NULL);
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *rows;

  g_ptr_array_add (argv, g_strdup (python));
  g_ptr_array_add (argv, g_strdup (script));
  for (guint i = 0; names[i] != NULL; i++)
    {
      char *path = trace (names[i]);

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_autofree char *why = g_strdup_printf ("no %s", path);

          g_free (path);
          g_test_skip (why);
          return NULL;
        }
      g_ptr_array_add (argv, path);
    }
  g_ptr_array_add (argv, NULL);
  if (python == NULL)
    {
      g_test_skip ("python3 is not installed (build-aux/warpscope-dev installs it)");
      return NULL;
    }
  g_assert_cmpint (ws_test_run ((const char *const *) argv->pdata, &out, NULL), ==, 0);
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_ptr_array_add (rows, g_strsplit (lines[i], "\t", -1));
  return rows;
}

static GPtrArray *
truths (void)
{
  const char *names[] = { "ddp2_rank0.json.gz", "ddp2_rank1.json.gz", NULL };

  return truths_of (names);
}

static char **
truth (GPtrArray *rows, const char *kind, const char *name, const char *rank)
{
  for (guint i = 0; i < rows->len; i++)
    {
      char **row = g_ptr_array_index (rows, i);

      if (g_str_equal (row[0], kind) && (name == NULL || g_str_equal (row[1], name)) &&
          (rank == NULL || g_str_equal (row[2], rank)))
        return row;
    }
  return NULL;
}

/* The range whose median per step the straggler spends most beyond the
 * other rank. */
static const char *
late_range (GPtrArray *rows, const char *straggler, const char *other)
{
  const char *best = NULL;
  gint64 best_extra = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      char **row = g_ptr_array_index (rows, i);
      char **theirs;
      gint64 extra;

      if (!g_str_equal (row[0], "range") || !g_str_equal (row[2], straggler))
        continue;
      theirs = truth (rows, "range", row[1], other);
      extra = g_ascii_strtoll (row[3], NULL, 10) -
              (theirs != NULL ? g_ascii_strtoll (theirs[3], NULL, 10) : 0);
      if (best == NULL || extra > best_extra)
        {
          best = row[1];
          best_extra = extra;
        }
    }
  return best;
}

/* `ranks --format csv` over @args: its closing line, "straggler: rank 1,
 * +N ns per step, in data", against the script's. */
static void
assert_straggler (GPtrArray *t, const char *const *args)
{
  g_autofree char *out = ws_test_cli_expect (args, 0, NULL);
  const char *line = strstr (out, "straggler: rank ");
  char **want = truth (t, "straggler", NULL, NULL);
  g_autofree char *range = NULL;
  guint rank = 0;
  gint64 late = 0, want_late;

  g_assert_nonnull (want);
  g_assert_nonnull (line);
  g_assert_cmpint (
    sscanf (line, "straggler: rank %u, +%" G_GINT64_FORMAT " ns per step", &rank, &late), ==, 2);
  g_assert_cmpuint (rank, ==, (guint) atoi (want[1]));
  /* Both clocks are the traces' own; warpscope aligns them on the
   * collectives' ends, which moves a rank by microseconds. */
  want_late = g_ascii_strtoll (want[2], NULL, 10);
  g_test_message ("lateness: warpscope %" G_GINT64_FORMAT " ns, Python %" G_GINT64_FORMAT " ns",
                  late, want_late);
  g_assert_cmpint (ABS (late - want_late), <=, want_late / 100);
  range =
    g_strdup_printf (" in %s\n", late_range (t, want[1], g_str_equal (want[1], "0") ? "1" : "0"));
  /* The planted sleep: rank 1's `data`. */
  g_assert_cmpstr (want[1], ==, "1");
  g_assert_cmpstr (late_range (t, "1", "0"), ==, "data");
  g_assert_nonnull (strstr (line, range));
  /* The file of each rank by its distributedInfo. */
  g_assert_nonnull (strstr (out, "\n0,"));
  g_assert_nonnull (strstr (out, "ddp2_rank0.json.gz,python,"));
  g_assert_nonnull (strstr (out, "\n1,"));
  g_assert_nonnull (strstr (out, "ddp2_rank1.json.gz,python,"));
}

static void
test_straggler (void)
{
  g_autoptr (GPtrArray) t = truths ();
  g_autofree char *r0 = trace ("ddp2_rank0.json.gz");
  g_autofree char *r1 = trace ("ddp2_rank1.json.gz");

  if (t == NULL)
    return;
  for (guint s = 2; s <= 4; s++)
    {
      g_autofree char *name = g_strdup_printf ("ProfilerStep#%u", s);

      g_assert_nonnull (truth (t, "step", name, NULL));
    }
  {
    const char *args[] = { "ranks", "--format", "csv", r0, r1, NULL };

    assert_straggler (t, args);
  }
}

/* The 4-rank job (tests/data/kineto/captures/ddp4_rank*.json.gz, four
 * H200s, rank 2 sleeping 25 ms in `data`): the traces of ranks 0 and 1
 * open on five all-reduce kernels launched before the profiler's active
 * steps (the GPU ran behind, waiting for rank 2), which ranks 2 and 3
 * lack.  Matched from the first call, the n-th collective was not the same
 * call on every rank and rank 2 came out +3.5 ms late instead of the
 * +30.4 ms Python finds. */
static void
test_four_ranks (void)
{
  const char *names[] = { "ddp4_rank0.json.gz", "ddp4_rank1.json.gz", "ddp4_rank2.json.gz",
                          "ddp4_rank3.json.gz", NULL };
  g_autoptr (GPtrArray) t = truths_of (names);
  char *r[4] = { NULL };
  g_autofree char *out = NULL;
  const char *line;
  char **want;
  guint rank = 0;
  gint64 late = 0, want_late;

  if (t == NULL)
    return;
  for (guint i = 0; i < 4; i++)
    r[i] = trace (names[i]);
  {
    const char *args[] = { "ranks", "--format", "csv", r[0], r[1], r[2], r[3], NULL };

    out = ws_test_cli_expect (args, 0, NULL);
  }
  for (guint i = 0; i < 4; i++)
    g_free (r[i]);
  want = truth (t, "straggler", NULL, NULL);
  /* Python's straggler is the planted one. */
  g_assert_true (want != NULL && g_str_equal (want[1], "2"));
  line = strstr (out, "straggler: rank ");
  g_assert_nonnull (line);
  g_assert_cmpint (
    sscanf (line, "straggler: rank %u, +%" G_GINT64_FORMAT " ns per step", &rank, &late), ==, 2);
  g_assert_cmpuint (rank, ==, 2);
  want_late = want != NULL ? g_ascii_strtoll (want[2], NULL, 10) : 0;
  g_test_message ("lateness: warpscope %" G_GINT64_FORMAT " ns, Python %" G_GINT64_FORMAT " ns",
                  late, want_late);
  g_assert_cmpint (ABS (late - want_late), <=, want_late / 100);
  g_assert_nonnull (strstr (line, " in data\n"));
}

/* The device ids the script found in rank @rank's trace, as a
 * comma-separated list. */
static const char *
truth_devices (GPtrArray *t, guint rank)
{
  g_autofree char *number = g_strdup_printf ("%u", rank);
  char **row = truth (t, "device", number, NULL);

  g_assert_nonnull (row);
  return row != NULL ? row[2] : "";
}

static char *
devices_text (GArray *devices)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < devices->len; i++)
    g_string_append_printf (out, "%s%d", i > 0 ? "," : "", g_array_index (devices, gint32, i));
  return g_string_free (out, FALSE);
}

static gboolean
listed (const char *list, gint device)
{
  g_auto (GStrv) ids = g_strsplit (list, ",", -1);

  for (guint i = 0; ids[i] != NULL; i++)
    if (ids[i][0] != '\0' && atoi (ids[i]) == device)
      return TRUE;
  return FALSE;
}

/* `info`: "GPUs:" and one line per GPU, as many as the job's distinct
 * (host, device id) pairs. */
static void
assert_info_gpus (GPtrArray *t, const char *const *paths, guint n, guint want)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autofree char *line = g_strdup_printf ("GPUs:           %u\n", want);
  g_auto (GStrv) lines = NULL;
  guint gpu_lines = 0;

  g_ptr_array_add (args, (gpointer) "info");
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (args, (gpointer) paths[i]);
  g_ptr_array_add (args, NULL);
  out = ws_test_cli_expect ((const char *const *) args->pdata, 0, NULL);
  g_assert_nonnull (strstr (out, line));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint rank;

      gpu_lines += g_str_has_prefix (lines[i], "  GPU ");
      /* Each rank's line, then the GPU it ran on. */
      if (sscanf (lines[i], "  rank %u: ", &rank) == 1)
        {
          g_autofree char *as_device = g_strdup_printf (" as device %s", truth_devices (t, rank));

          g_assert_nonnull (lines[i + 1]);
          g_assert_true (g_str_has_prefix (lines[i + 1], "    on "));
          g_assert_true (g_str_has_suffix (lines[i + 1], as_device));
        }
    }
  g_assert_cmpuint (gpu_lines, ==, want);
}

/* `diagnose`: the idle finding names the straggler's own GPU (it sleeps,
 * its GPU idles), and each GPU's idle share is of a device some trace
 * ran on. */
static void
assert_diagnose_gpus (GPtrArray *t, const char *const *paths, guint n)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autofree char *all = g_strdup ("");
  char **straggler = truth (t, "straggler", NULL, NULL);
  g_autofree char *idle = NULL;
  g_auto (GStrv) lines = NULL;
  guint shares = 0;

  g_assert_nonnull (straggler);
  for (guint r = 0; r < n; r++)
    {
      char *both = g_strconcat (all, ",", truth_devices (t, r), NULL);

      g_free (all);
      all = both;
    }
  g_ptr_array_add (args, (gpointer) "diagnose");
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (args, (gpointer) paths[i]);
  g_ptr_array_add (args, NULL);
  out = ws_test_cli_expect ((const char *const *) args->pdata, 0, NULL);
  idle = g_strdup_printf ("GPU %s is idle ",
                          truth_devices (t, straggler != NULL ? (guint) atoi (straggler[1]) : 0));
  g_test_message ("diagnose names: %s", idle);
  g_assert_nonnull (strstr (out, idle));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      int device = -1;

      if (g_str_has_prefix (lines[i], "    GPU ") && strstr (lines[i], " idle share ") != NULL &&
          sscanf (lines[i], "    GPU %d", &device) == 1)
        {
          g_assert_true (listed (all, device));
          shares++;
        }
    }
  g_assert_cmpuint (shares, ==, n);
}

/* The job's run: its GPUs, each rank's GPUs (ws_run_devices_used(), what
 * the ranks, findings and lanes read) and the timeline's lanes. */
static void
assert_run_gpus (GPtrArray *t, const char *const *paths, guint want)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = ws_ranks_loader_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_autoptr (WsLanes) lanes = NULL;
  guint streams = 0;

  g_assert_no_error (error);
  g_assert_nonnull (run->ranks);
  g_assert_cmpuint (run->prov.gpus->len, ==, want);
  for (guint i = 0; i < ws_ranks_get_n (run->ranks); i++)
    {
      const WsRank *rank = ws_ranks_get (run->ranks, i);
      g_autoptr (GArray) devices = ws_run_devices_used (run, rank->pid);
      g_autofree char *text = devices_text (devices);
      g_autofree char *as_device = g_strdup_printf ("as device %s", truth_devices (t, rank->rank));

      g_assert_cmpstr (text, ==, truth_devices (t, rank->rank));
      /* The rank's GPU as the Ranks page and `ranks` describe it. */
      g_assert_nonnull (rank->gpus);
      g_assert_nonnull (strstr (rank->gpus, as_device));
    }
  /* Each rank's stream lanes ("Stream 7", "7 / GPU 1") are on its device;
   * the GPU groups (memory lanes) are GPUs of the job. */
  lanes = ws_lanes_new (run);
  for (guint l = 0; l < ws_lanes_get_n_lanes (lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (lanes, l);

      if (lane->kind == WS_LANE_STREAM)
        {
          g_assert_cmpint (lane->rank, >=, 0);
          g_assert_true (listed (truth_devices (t, (guint) lane->rank), lane->device));
          streams++;
        }
      else if (lane->kind == WS_LANE_MEMORY ||
               (lane->kind == WS_LANE_GROUP && lane->group_kind == WS_GROUP_GPU))
        g_assert_cmpint (lane->device, <, (gint) want);
    }
  g_assert_cmpuint (streams, >, 0);
}

/* Issue 40, item 1: a GPU is (host, device id).  The ranks of one host
 * each list that host's GPUs ("deviceProperties"); the job has each GPU
 * once, and rank 1's GPU 1 is GPU 1 everywhere (it was GPU 3 of ddp2 and
 * GPU 5 of ddp4), against the JSON read by kineto-ranks.py. */
static void
test_gpu_ids (void)
{
  const char *jobs[][5] = {
    { "ddp2_rank0.json.gz", "ddp2_rank1.json.gz", NULL },
    { "ddp4_rank0.json.gz", "ddp4_rank1.json.gz", "ddp4_rank2.json.gz", "ddp4_rank3.json.gz",
      NULL },
  };

  for (guint j = 0; j < G_N_ELEMENTS (jobs); j++)
    {
      g_autoptr (GPtrArray) t = truths_of (jobs[j]);
      char *paths[5] = { NULL };
      guint n = 0, want;
      char **gpus;

      if (t == NULL)
        return;
      for (; jobs[j][n] != NULL; n++)
        paths[n] = trace (jobs[j][n]);
      gpus = truth (t, "gpus", NULL, NULL);
      g_assert_nonnull (gpus);
      want = gpus != NULL ? (guint) atoi (gpus[1]) : 0;
      /* Each rank on a GPU of its own, one host. */
      g_assert_cmpuint (want, ==, n);
      assert_info_gpus (t, (const char *const *) paths, n, want);
      assert_diagnose_gpus (t, (const char *const *) paths, n);
      assert_run_gpus (t, (const char *const *) paths, want);
      for (guint i = 0; i < n; i++)
        g_free (paths[i]);
    }
  /* The words: rank 1 of ddp2 idles on GPU 1. */
  {
    g_autofree char *r0 = trace ("ddp2_rank0.json.gz");
    g_autofree char *r1 = trace ("ddp2_rank1.json.gz");
    const char *args[] = { "diagnose", r0, r1, NULL };
    g_autofree char *out = ws_test_cli_expect (args, 0, NULL);

    g_assert_nonnull (strstr (out, "GPU 1 is idle "));
    g_assert_null (strstr (out, "GPU 3"));
  }
}

/* A folder of the traces and a glob of them are the same job. */
static void
test_folder_and_glob (void)
{
  g_autoptr (GPtrArray) t = truths ();
  g_autofree char *job = g_build_filename (tmp, "job", NULL);
  g_autofree char *glob = g_build_filename (job, "ddp2_*.json.gz", NULL);

  if (t == NULL)
    return;
  g_assert_cmpint (g_mkdir_with_parents (job, 0755), ==, 0);
  for (guint r = 0; r < 2; r++)
    {
      g_autofree char *name = g_strdup_printf ("ddp2_rank%u.json.gz", r);
      g_autofree char *from = trace (name);
      g_autofree char *copy = ws_test_copy_to_tmp (from, name);
      g_autofree char *to = g_build_filename (job, name, NULL);

      g_assert_cmpint (g_rename (copy, to), ==, 0);
    }
  {
    const char *args[] = { "ranks", "--format", "csv", job, NULL };

    assert_straggler (t, args);
  }
  {
    const char *args[] = { "ranks", "--format", "csv", glob, NULL };

    assert_straggler (t, args);
  }
}

/* A digest of the traces made with threads holds the same straggler. */
static void
test_digest (void)
{
  g_autoptr (GPtrArray) t = truths ();
  g_autofree char *r0 = trace ("ddp2_rank0.json.gz");
  g_autofree char *r1 = trace ("ddp2_rank1.json.gz");
  g_autofree char *threads = g_build_filename (tmp, "threads.wsdigest", NULL);
  const char *args[] = { "digest", "-o", threads, r0, r1, NULL };
  const char *ranks[] = { "ranks", "--format", "csv", threads, NULL };
  g_autofree char *out = NULL;

  if (t == NULL)
    return;
  out = ws_test_cli_expect (args, 0, NULL);
  g_assert_nonnull (strstr (out, "2 of 2 exports digested"));
  assert_straggler (t, ranks);
}

/* The same digest made under mpirun: a skip, never a pass, without MPI. */
static void
test_digest_mpi (void)
{
  g_autoptr (GPtrArray) t = truths ();
  g_autofree char *r0 = trace ("ddp2_rank0.json.gz");
  g_autofree char *r1 = trace ("ddp2_rank1.json.gz");
  g_autofree char *mpi = g_build_filename (tmp, "mpi.wsdigest", NULL);
  g_autofree char *mpirun = g_find_program_in_path ("mpirun");

  if (t == NULL)
    return;
  if (!HAVE_MPI || mpirun == NULL)
    {
      g_test_skip ("no mpirun or no MPI build: digest --mpi not run");
      return;
    }
  {
    const char *argv[] = { mpirun,
                           "--oversubscribe",
                           "-x",
                           "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1",
                           "--allow-run-as-root",
                           "-n",
                           "3",
                           ws_test_cli (),
                           "digest",
                           "--mpi",
                           "-o",
                           mpi,
                           r0,
                           r1,
                           NULL };
    const char *ranks[] = { "ranks", "--format", "csv", mpi, NULL };
    g_autofree char *out = NULL;

    g_assert_cmpint (ws_test_run (argv, &out, NULL), ==, 0);
    g_assert_nonnull (strstr (out, "(mpi 3 processes)"));
    assert_straggler (t, ranks);
  }
}

/* The header alone: the rank, world size, backend and base time, no
 * event. */
static void
test_probe (void)
{
  g_autofree char *r1 = trace ("ddp2_rank1.json.gz");
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) probe = NULL;

  if (!g_file_test (r1, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no tests/data/kineto/captures/ddp2_rank1.json.gz");
      return;
    }
  probe = ws_kineto_reader_probe (r1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (probe->prov.dist_rank, ==, 1);
  g_assert_cmpint (probe->prov.dist_world_size, ==, 2);
  g_assert_cmpstr (probe->prov.dist_backend, ==, "nccl");
  g_assert_cmpint (probe->prov.session_start_utc_ns, ==, G_GINT64_CONSTANT (1790857026000000000));
  g_assert_cmpuint (probe->kernels.n, ==, 0);
  g_assert_cmpuint (probe->prov.gpus->len, ==, 2);
}

/* Traces and nsys exports in one job: one line that says so. */
static void
test_mixed_refused (void)
{
  g_autofree char *r0 = trace ("ddp2_rank0.json.gz");
  g_autofree char *r1 = trace ("ddp2_rank1.json.gz");
  g_autofree char *err = NULL;
  g_autofree char *out = NULL;
  g_autofree char *sqlite = g_build_filename (tmp, "lm_nsys.sqlite", NULL);
  g_autofree char *gz = trace ("lm_nsys.sqlite.gz");

  if (!g_file_test (gz, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no tests/data/kineto/captures/lm_nsys.sqlite.gz");
      return;
    }
  {
    g_autofree char *cmd = g_strdup_printf ("gzip -dc '%s' > '%s'", gz, sqlite);

    g_assert_cmpint (system (cmd), ==, 0);
  }
  {
    const char *args[] = { "ranks", r0, r1, sqlite, NULL };

    out = ws_test_cli_expect (args, 2, &err);
  }
  g_assert_cmpuint (ws_test_count_lines (err), ==, 1);
  g_assert_nonnull (strstr (err, "is a PyTorch profiler trace and"));
  g_assert_nonnull (strstr (err, "the ranks of a job are all traces or all exports"));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();

  g_test_add_func ("/kineto-ranks/probe", test_probe);
  g_test_add_func ("/kineto-ranks/straggler-as-python", test_straggler);
  g_test_add_func ("/kineto-ranks/four-ranks-straggler-as-python", test_four_ranks);
  g_test_add_func ("/kineto-ranks/gpu-ids-as-the-json", test_gpu_ids);
  g_test_add_func ("/kineto-ranks/folder-and-glob", test_folder_and_glob);
  g_test_add_func ("/kineto-ranks/digest-threads", test_digest);
  g_test_add_func ("/kineto-ranks/digest-mpi", test_digest_mpi);
  g_test_add_func ("/kineto-ranks/mixed-with-exports-refused", test_mixed_refused);
  status = g_test_run ();
  ws_test_rmtree (tmp);
  g_free (tmp);
  return status;
}
