/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

#include "ws-nsys-stats-reader.h"
#include "ws-kernel-name.h"
#include "ws-test-util.h"

/* `warpscope-cli capture` and `doctor` as a user runs them: a real
 * process, with the stand-ins first on PATH. */

static char **
stand_in_env (const char *const *extra)
{
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autofree char *path = g_strconcat (stand_ins, ":", g_getenv ("PATH"), NULL);
  char **env = g_get_environ ();

  env = g_environ_setenv (env, "PATH", path, TRUE);
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    {
      const char *eq = strchr (extra[i], '=');
      g_autofree char *name = g_strndup (extra[i], eq - extra[i]);

      env = g_environ_setenv (env, name, eq + 1, TRUE);
    }
  return env;
}

static int
run_cli (const char *cwd, char **env, const char *const *args, char **out, char **err)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (cwd, (char **) argv->pdata, env, G_SPAWN_DEFAULT, NULL, NULL, out, err, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static char *
write_targets (const char *dir, const char *text)
{
  char *path = g_build_filename (dir, "targets.tsv", NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* Two targets: exit status 0, the [STEP x/6] lines of both in order on
 * standard output with the programs' own output among them, and the
 * output tree with its manifests. */
static void
test_two_targets (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *targets = write_targets (dir, "NAME\tCMD\tWORKDIR\tENVS\n"
                                                 "alpha\techo \"alpha says $WORD\"\t-\tWORD=hi\n"
                                                 "beta\techo beta runs\t.\t-\n");
  g_auto (GStrv) env = stand_in_env (NULL);
  const char *args[] = { "capture", "--targets", "targets.tsv", "--topn", "2", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_auto (GStrv) lines = NULL;
  guint next = 0;
  const char *const names[] = { "alpha", "beta" };
  const char *const files[] = {
    "out/targets/alpha/run.json",
    "out/targets/alpha/nsys/alpha.nsys-rep",
    "out/targets/alpha/nsys/alpha.sqlite",
    "out/targets/alpha/nsys/alpha_cuda_gpu_kern_sum.csv",
    "out/targets/alpha/ncu/barrier_heavy.ncu-rep",
    "out/targets/alpha/ncu/barrier_heavy_ncu_raw.csv",
    "out/targets/alpha/ncu/strided_read.ncu-rep",
    "out/targets/alpha/ncu/strided_read_ncu_raw.csv",
    "out/targets/beta/run.json",
    "out/targets/beta/nsys/beta.sqlite",
    "out/targets/beta/ncu/strided_read_ncu_raw.csv",
    "out/targets/capture.log",
  };

  g_assert_cmpint (run_cli (dir, env, args, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "\nalpha says hi\n"));
  g_assert_nonnull (strstr (out, "\nbeta runs\n"));

  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "[STEP "))
      {
        guint step = next / 2 % 6 + 1;
        const char *word = next % 2 == 0 ? "开始" : "完成";
        g_autofree char *expected =
          g_strdup_printf ("[STEP %u/6] %s %s", step, word, names[next / 12]);

        g_assert_true (g_str_has_prefix (lines[i], expected));
        next++;
      }
  g_assert_cmpuint (next, ==, 24);

  for (gsize i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i], NULL);

      g_test_message ("%s", files[i]);
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
    }
  g_assert_nonnull (strstr (out, "alpha: done: "));

  /* run.json names the nsys kernel each ncu report was made for: mangled
   * name, grid and block as the export has them (the stand-in's nsys
   * writes the probe's export), checked here with SQLite. */
  {
    g_autofree char *manifest_path = g_build_filename (dir, "out/targets/alpha/run.json", NULL);
    g_autofree char *db = g_build_filename (dir, "out/targets/alpha/nsys/alpha.sqlite", NULL);
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonArray *kernels;

    g_assert_true (json_parser_load_from_file (parser, manifest_path, NULL));
    kernels = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                            "kernels");
    g_assert_cmpuint (json_array_get_length (kernels), ==, 2);
    for (guint i = 0; i < 2; i++)
      {
        JsonObject *k = json_array_get_object_element (kernels, i);
        const char *name = json_object_get_string_member (k, "name");
        g_autofree char *where = g_strdup_printf (
          "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName"
          " WHERE s.value = '%s'",
          name);
        g_autofree char *q_mangled = g_strdup_printf (
          "SELECT (SELECT value FROM StringIds WHERE id = k.mangledName) %s LIMIT 1", where);
        g_autofree char *q_config = g_strdup_printf (
          "SELECT '(' || gridX || ', ' || gridY || ', ' || gridZ || ')|(' || blockX || ', ' ||"
          " blockY || ', ' || blockZ || ')' %s GROUP BY 1 ORDER BY count(*) DESC LIMIT 1",
          where);
        g_autofree char *mangled = ws_test_sqlite_text (db, q_mangled);
        g_autofree char *config = ws_test_sqlite_text (db, q_config);
        g_autofree char *recorded =
          g_strdup_printf ("%s|%s", json_object_get_string_member (k, "grid"),
                           json_object_get_string_member (k, "block"));

        g_assert_nonnull (mangled);
        g_assert_true (g_str_has_prefix (mangled, "_Z"));
        g_assert_cmpstr (json_object_get_string_member (k, "mangled"), ==, mangled);
        g_assert_cmpstr (recorded, ==, config);
        g_assert_cmpstr (json_object_get_string_member (k, "display"), ==,
                         i == 0 ? "barrier_heavy" : "strided_read");
      }
  }
  ws_test_rmtree (dir);
}

/* The 2 kernels with the most time over the four DDP ranks' nsys stats
 * summaries added up, as the capture of a job must pick them. */
static void
top_two_of_ranks (char **names)
{
  g_autoptr (GHashTable) totals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  gpointer key, value;
  gint64 best[2] = { -1, -1 };

  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *name = g_strdup_printf ("rank%u_cuda_gpu_kern_sum.csv", r);
      g_autofree char *path = ws_test_data ("multirank", name, NULL);
      g_autoptr (WsSummary) summary = ws_nsys_stats_read (path, NULL);

      g_assert_nonnull (summary);
      for (guint i = 0; i < summary->rows->len; i++)
        {
          const WsSummaryRow *row = &g_array_index (summary->rows, WsSummaryRow, i);
          gint64 total = GPOINTER_TO_SIZE (g_hash_table_lookup (totals, row->name));

          g_hash_table_insert (totals, g_strdup (row->name), GSIZE_TO_POINTER (total + row->total));
        }
    }
  g_hash_table_iter_init (&iter, totals);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gint64 t = (gint64) GPOINTER_TO_SIZE (value);

      if (t > best[0])
        {
          best[1] = best[0];
          names[1] = names[0];
          best[0] = t;
          names[0] = key;
        }
      else if (t > best[1])
        {
          best[1] = t;
          names[1] = key;
        }
    }
  names[0] = g_strdup (names[0]);
  names[1] = g_strdup (names[1]);
}

/* --per-rank: a torchrun job and an mpirun job of four ranks each: nsys
 * inside the launcher (one report per rank, named by its rank), stats per
 * rank, the top kernels from all ranks' summaries, ncu on rank 0 alone;
 * the target's folder then opens as one run of four ranks, with its ncu
 * results. */
static void
test_per_rank (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *calls = g_build_filename (dir, "calls.txt", NULL);
  g_autofree char *script = g_build_filename (dir, "train.py", NULL);
  g_autofree char *app = g_build_filename (dir, "app.sh", NULL);
  g_autofree char *targets = write_targets (
    dir, "NAME\tCMD\tWORKDIR\tENVS\n"
         "ddp\ttorchrun --nproc_per_node 4 --master_port=29501 train.py --steps 3\t-\t-\n"
         "mpi\tmpirun -n 4 ./app.sh\t-\t-\n");
  const char *extra[] = { NULL, NULL };
  g_auto (GStrv) env = NULL;
  const char *args[] = { "capture", "--per-rank", "--targets", "targets.tsv", "--topn", "2", NULL };
  g_autofree char *out = NULL, *err = NULL, *log = NULL;
  char *expected[2] = { NULL, NULL };

  g_assert_true (g_file_set_contents (script,
                                      /* One write: print() of several values
                                       * writes each apart when Python's output
                                       * is unbuffered, and four ranks share
                                       * one pipe. */
                                      "import os\nos.write(1, ('rank %s of %s\\n' % "
                                      "(os.environ['RANK'], os.environ['WORLD_SIZE'])).encode())\n",
                                      -1, NULL));
  g_assert_true (
    g_file_set_contents (app, "#!/bin/sh\necho mpi rank $OMPI_COMM_WORLD_RANK\n", -1, NULL));
  g_assert_cmpint (g_chmod (app, 0755), ==, 0);
  extra[0] = g_strconcat ("WS_STANDIN_CALLS=", calls, NULL);
  env = stand_in_env (extra);
  g_free ((char *) extra[0]);

  g_assert_cmpint (run_cli (dir, env, args, &out, &err), ==, 0);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *said = g_strdup_printf ("\nrank %u of 4\n", r);
      g_autofree char *mpi_said = g_strdup_printf ("\nmpi rank %u\n", r);

      if (strstr (out, said) == NULL || strstr (out, mpi_said) == NULL)
        g_printerr ("what warpscope-cli printed:\n%s\n", out);
      g_assert_nonnull (strstr (out, said));
      g_assert_nonnull (strstr (out, mpi_said));
      for (guint t = 0; t < 2; t++)
        {
          const char *target = t == 0 ? "ddp" : "mpi";
          const char *ends[] = { ".nsys-rep", ".sqlite", "_cuda_gpu_kern_sum.csv" };

          for (guint e = 0; e < G_N_ELEMENTS (ends); e++)
            {
              g_autofree char *file =
                g_strdup_printf ("%s/out/targets/%s/nsys/rank%u%s", dir, target, r, ends[e]);

              g_test_message ("%s", file);
              g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
            }
        }
    }
  g_assert_nonnull (strstr (out, "ddp: done: "));
  g_assert_nonnull (strstr (out, "mpi: done: "));

  /* nsys inside the launchers, once per rank; ncu over rank 0 alone. */
  log = ws_test_read (calls);
  g_assert_nonnull (strstr (log, "torchrun --nproc_per_node 4 --master_port=29501 --no-python "));
  g_assert_nonnull (strstr (log, "/stand-ins/nsys profile --force-overwrite=true"));
  g_assert_nonnull (strstr (log, "\nmpirun -n 4 "));
  g_assert_nonnull (strstr (log, "/out/targets/mpi/nsys/rank%q{OMPI_COMM_WORLD_RANK}%q{PMI_RANK} "
                                 "./app.sh\n"));
  {
    g_auto (GStrv) lines = g_strsplit (log, "\n", -1);
    guint profiles = 0, ncu_runs = 0;

    for (guint i = 0; lines[i] != NULL; i++)
      {
        profiles += g_str_has_prefix (lines[i], "nsys profile ");
        ncu_runs += g_str_has_prefix (lines[i], "ncu -f -o ");
      }
    /* 4 ranks × 2 jobs; 2 kernels × 2 jobs, each on rank 0 alone. */
    g_assert_cmpuint (profiles, ==, 8);
    g_assert_cmpuint (ncu_runs, ==, 4);
  }
  g_assert_nonnull (strstr (log, "/out/targets/ddp/nsys/rank%q{RANK} python3 train.py --steps 3"));

  /* The kernels picked: the top two of the four ranks added up. */
  top_two_of_ranks (expected);
  {
    g_autofree char *manifest = g_build_filename (dir, "out/targets/ddp/run.json", NULL);
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonArray *kernels;

    g_assert_true (json_parser_load_from_file (parser, manifest, NULL));
    kernels = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                            "kernels");
    g_assert_cmpuint (json_array_get_length (kernels), ==, 2);
    for (guint i = 0; i < 2; i++)
      g_assert_cmpstr (
        json_object_get_string_member (json_array_get_object_element (kernels, i), "name"), ==,
        expected[i]);
  }

  /* The folder is one job of four ranks, rank 3 its straggler. */
  {
    g_autofree char *folder = g_build_filename (dir, "out/targets/ddp", NULL);
    const char *ranks_args[] = { "ranks", "--format", "csv", folder, NULL };
    g_autofree char *ranks_out = NULL, *ranks_err = NULL;

    g_assert_cmpint (run_cli (dir, env, ranks_args, &ranks_out, &ranks_err), ==, 0);
    g_assert_nonnull (strstr (ranks_out, "\nstraggler: rank 3, +"));
    g_assert_nonnull (strstr (ranks_out, "/out/targets/ddp/nsys/rank3.sqlite,python3,"));
  }

  /* The job's ncu results come with it: the launches of the CSV the
   * stand-in ncu prints for each report exported with mangled names (its
   * rows that start with an ID; the two reports print the same launches,
   * counted once). */
  {
    g_autofree char *folder = g_build_filename (dir, "out/targets/ddp", NULL);
    g_autofree char *csv_path =
      ws_test_data ("tools", "ncu-2025.3.1_import_strided_read_mangled.csv", NULL);
    g_autofree char *csv = ws_test_read (csv_path);
    const char *gauges_args[] = { "gauges", "--format", "csv", folder, NULL };
    g_autofree char *gauges_out = NULL, *gauges_err = NULL;
    g_auto (GStrv) rows = g_strsplit (csv, "\n", -1);
    g_auto (GStrv) lines = NULL;
    guint launches = 0;

    for (guint i = 0; rows[i] != NULL; i++)
      launches += rows[i][0] == '"' && g_ascii_isdigit (rows[i][1]);
    g_assert_cmpint (run_cli (dir, env, gauges_args, &gauges_out, &gauges_err), ==, 0);
    lines = g_strsplit (g_strchomp (gauges_out), "\n", -1);
    g_assert_cmpuint (g_strv_length (lines), ==, 1 + launches);
    /* As ncu named it (mangled): the DDP fixture's kernels are not the probe's. */
    g_assert_nonnull (strstr (gauges_out, "\n0,_Z12strided_readPKfPfii,"));
  }

  /* A target that is no distributed job is refused before anything runs. */
  {
    g_autofree char *bad = write_targets (dir, "plain\techo hi\t-\t-\n");
    g_autofree char *bad_out = NULL, *bad_err = NULL;

    g_autofree char *bad_dir = g_build_filename (dir, "out/targets/plain", NULL);

    g_assert_cmpint (run_cli (dir, env, args, &bad_out, &bad_err), ==, 2);
    g_assert_nonnull (strstr (bad_err, "targets.tsv:1: plain: one export per rank needs a "
                                       "distributed job (torchrun, mpirun, mpiexec or srun), "
                                       "not “echo”\n"));
    g_assert_false (g_file_test (bad_dir, G_FILE_TEST_EXISTS));
  }
  ws_test_rmtree (dir);
  g_free (expected[0]);
  g_free (expected[1]);
}

/* One target fails (ERR_NVGPUCTRPERM): exit status 1, the failed step's
 * line with ncu's own error, and the other target still done. */
static void
test_failed_target (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *targets = write_targets (dir, "counters\ttrue\t-\tWS_NCU_MODE=perm\n"
                                                 "fine\ttrue\t-\t-\n");
  g_auto (GStrv) env = stand_in_env (NULL);
  const char *args[] = { "capture", "--targets", targets, "--topn", "1", "--out", "o", NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (run_cli (dir, env, args, &out, &err), ==, 1);
  g_assert_nonnull (strstr (out, "[STEP 5/6] 失败 counters: exit status 1: ==ERROR== "
                                 "ERR_NVGPUCTRPERM"));
  g_assert_nonnull (strstr (out, "[STEP 6/6] 跳过 counters"));
  g_assert_nonnull (strstr (out, "counters: failed at step 5/6: "));
  g_assert_nonnull (strstr (out, "fine: done: "));
  ws_test_rmtree (dir);
}

/* Bad input: exit status 2 before anything runs, each problem named with
 * the file and line. */
static void
test_bad_input (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *invalid = ws_test_data ("targets", "invalid_rows.tsv", NULL);
  g_auto (GStrv) env = stand_in_env (NULL);
  const char *invalid_args[] = { "capture", "--targets", invalid, NULL };
  const char *only_args[] = { "capture", "--targets", invalid, "--only", "nobody", NULL };
  const char *no_targets[] = { "capture", NULL };
  const char *bad_topn[] = { "capture", "--targets", invalid, "--topn", "0", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *line = g_strdup_printf ("%s:3: CMD of “missing_cmd”", invalid);
  g_autofree char *out_dir = g_build_filename (dir, "out", NULL);

  g_assert_cmpint (run_cli (dir, env, invalid_args, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, line));
  g_assert_nonnull (strstr (err, "“NOEQUALS” is not NAME=VALUE"));
  g_assert_false (g_file_test (out_dir, G_FILE_TEST_EXISTS));
  g_free (out);
  g_free (err);

  g_assert_cmpint (run_cli (dir, env, only_args, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "no target named “nobody”"));
  g_free (out);
  g_free (err);

  g_assert_cmpint (run_cli (dir, env, no_targets, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "TARGETS_TSV"));
  g_free (out);
  g_free (err);

  g_assert_cmpint (run_cli (dir, env, bad_topn, &out, &err), ==, 2);
  ws_test_rmtree (dir);
}

/* `--log` never replaces what the capture reads: the targets file, by its
 * name or through a link, is refused with one line and stays as it was;
 * nothing runs. */
static void
test_log_never_replaces_targets (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *targets = write_targets (dir, "fine\ttrue\t-\t-\n");
  g_autofree char *link = g_build_filename (dir, "log.txt", NULL);
  g_autofree char *out_dir = g_build_filename (dir, "o", NULL);
  g_autofree char *sha = ws_test_file_sha256 (targets);
  g_auto (GStrv) env = stand_in_env (NULL);
  const char *same[] = { "capture", "--targets", targets, "--log", targets,
                         "--topn",  "1",         "--out", "o",     NULL };
  const char *linked[] = { "capture", "--targets", "targets.tsv", "--log", "log.txt",
                           "--topn",  "1",         "--out",       "o",     NULL };
  const char *const *cases[] = { same, linked };

  g_assert_cmpint (symlink ("targets.tsv", link), ==, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL, *err = NULL;

      g_assert_cmpint (run_cli (dir, env, cases[i], &out, &err), ==, 2);
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, cases[i][4]));
      g_assert_nonnull (strstr (err, "the log would overwrite an input of the capture"));
      g_assert_true (strchr (err, '\n') == err + strlen (err) - 1);
      {
        g_autofree char *after = ws_test_file_sha256 (targets);

        g_assert_cmpstr (after, ==, sha);
      }
      g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
      g_assert_null (strstr (out, "[STEP 1/6]"));
    }
  ws_test_rmtree (dir);
}

/* The workflow's variables are read; options win over them. */
static void
test_environment (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *targets = write_targets (dir, "one\ttrue\t-\t-\ntwo\ttrue\t-\t-\n");
  const char *extra[] = { "TARGETS_TSV=targets.tsv", "OUT_DIR=captures", "TOPN=1", "NCU_SET=basic",
                          NULL };
  g_auto (GStrv) env = stand_in_env (extra);
  const char *args[] = { "capture", "--only", "two", "--ncu-set", "detailed", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *csv =
    g_build_filename (dir, "captures", "targets", "two", "ncu", "barrier_heavy_ncu_raw.csv", NULL);
  g_autofree char *second =
    g_build_filename (dir, "captures", "targets", "two", "ncu", "strided_read.ncu-rep", NULL);
  g_autofree char *one = g_build_filename (dir, "captures", "targets", "one", NULL);

  g_assert_cmpint (run_cli (dir, env, args, &out, &err), ==, 0);
  g_assert_true (g_file_test (csv, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (second, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (one, G_FILE_TEST_EXISTS));
  g_assert_nonnull (strstr (out, " --set detailed "));
  ws_test_rmtree (dir);
}

typedef struct
{
  GString *out;
  gboolean started;
  gboolean eof;
} Reading;

static void
read_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Reading *reading = data;
  g_autofree char *line =
    g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (source), result, NULL, NULL);

  if (line == NULL)
    {
      reading->eof = TRUE;
      return;
    }
  g_string_append_printf (reading->out, "%s\n", line);
  if (g_str_equal (line, "started"))
    reading->started = TRUE;
  g_data_input_stream_read_line_async (G_DATA_INPUT_STREAM (source), G_PRIORITY_DEFAULT, NULL,
                                       read_cb, reading);
}

static gboolean
started_or_eof (gpointer data)
{
  const Reading *reading = data;

  return reading->started || reading->eof;
}

/* Ctrl+C (SIGINT to the command line program only, as a terminal sends it
 * to the foreground group) cancels the capture: the tools, in groups of
 * their own, are ended; exit status 1. */
static void
test_interrupt (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *pids_path = g_build_filename (dir, "pids", NULL);
  g_autofree char *text = g_strdup_printf (
    "waits\techo $$ >> pids; (trap '' TERM; exec sleep 300) & echo $! >> pids; echo started; "
    "wait\t-\tWS_STANDIN_PIDS=%s\n",
    pids_path);
  g_autofree char *targets = write_targets (dir, text);
  g_auto (GStrv) env = stand_in_env (NULL);
  const char *argv[] = { ws_test_cli (), "capture", "--targets", targets, NULL };
  g_autoptr (GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_autoptr (GSubprocess) cli = NULL;
  g_autoptr (GDataInputStream) stream = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *pids = NULL;
  g_auto (GStrv) pid_lines = NULL;
  Reading reading = { g_string_new (NULL), FALSE, FALSE };

  g_subprocess_launcher_set_environ (launcher, env);
  g_subprocess_launcher_set_cwd (launcher, dir);
  cli = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  stream = g_data_input_stream_new (g_subprocess_get_stdout_pipe (cli));
  g_data_input_stream_read_line_async (stream, G_PRIORITY_DEFAULT, NULL, read_cb, &reading);
  ws_test_wait_until (started_or_eof, &reading, 60, "the capture's first line");
  g_assert_true (reading.started);
  g_subprocess_send_signal (cli, SIGINT);
  g_subprocess_wait (cli, NULL, &error);
  g_assert_no_error (error);
  ws_test_wait_flag (&reading.eof, 60, "the end of the interrupted capture's output");

  g_assert_true (g_subprocess_get_if_exited (cli));
  g_assert_cmpint (g_subprocess_get_exit_status (cli), ==, 1);
  g_assert_nonnull (strstr (reading.out->str, "[STEP 2/6] 失败 waits: cancelled"));

  pids = ws_test_read (pids_path);
  pid_lines = g_strsplit (pids, "\n", -1);
  /* The nsys stand-in, the program's shell and the sleep that ignores
   * SIGTERM. */
  g_assert_cmpuint (g_strv_length (pid_lines), ==, 4);
  for (guint i = 0; pid_lines[i] != NULL; i++)
    if (pid_lines[i][0] != '\0')
      g_assert_false (ws_test_process_alive ((GPid) g_ascii_strtoll (pid_lines[i], NULL, 10)));
  g_string_free (reading.out, TRUE);
  ws_test_rmtree (dir);
}

static char *
fake_proc (const char *dir, const char *paranoid, const char *params)
{
  char *root = g_build_filename (dir, "proc", NULL);
  g_autofree char *kernel = g_build_filename (root, "sys", "kernel", NULL);
  g_autofree char *nvidia = g_build_filename (root, "driver", "nvidia", NULL);
  g_autofree char *paranoid_path = g_build_filename (kernel, "perf_event_paranoid", NULL);
  g_autofree char *params_path = g_build_filename (nvidia, "params", NULL);

  g_assert_cmpint (g_mkdir_with_parents (kernel, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (nvidia, 0755), ==, 0);
  g_assert_true (g_file_set_contents (paranoid_path, paranoid, -1, NULL));
  if (params != NULL)
    g_assert_true (g_file_set_contents (params_path, params, -1, NULL));
  return root;
}

/* The doctor: the versions the real tools print, and each problem with its
 * exact fix; exit status 1 when a capture would fail. */
static void
test_doctor (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *root =
    fake_proc (dir, "4\n", "ResmanDebugLevel: 4294967295\nRmProfilingAdminOnly: 1\n");
  g_auto (GStrv) env = stand_in_env (NULL);
  const char *args[] = { "doctor", "--proc-root", root, "--ncu-set", "speed-of-light", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *stand_ins = ws_test_stand_ins ();
  g_autofree char *nsys_line = g_strdup_printf ("[ok] nsys 2025.3.1.0 (%s/nsys)", stand_ins);
  int status = run_cli (dir, env, args, &out, &err);

  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, nsys_line));
  g_assert_nonnull (strstr (out, "[ok] ncu 2025.3.1.0"));
  g_assert_nonnull (strstr (out, "[warning] ncu has no set “speed-of-light”; it offers basic, "
                                 "detailed, full, nvlink, pmsampling, roofline"));
  g_assert_nonnull (strstr (out, "[warning] kernel.perf_event_paranoid is 4"));
  g_assert_nonnull (strstr (out, "      sudo sysctl -w kernel.perf_event_paranoid=2\n"));
  if (geteuid () == 0)
    {
      g_assert_nonnull (strstr (out, "[ok] GPU counters are for administrators only "
                                     "(RmProfilingAdminOnly: 1); this runs as root"));
      g_assert_cmpint (status, ==, 0);
    }
  else
    {
      g_assert_nonnull (strstr (out, "[error] GPU counters are for administrators only"));
      g_assert_nonnull (strstr (out, "options nvidia NVreg_RestrictProfilingToAdminUsers=0"));
      g_assert_cmpint (status, ==, 1);
    }
  ws_test_rmtree (dir);
}

/* No nsys anywhere: an error with where it looked and how to fix it. */
static void
test_doctor_missing_tools (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *root = fake_proc (dir, "2\n", "RmProfilingAdminOnly: 0\n");
  const char *env[] = { "PATH=/nonexistent", "LC_ALL=C.UTF-8", "LANGUAGE=C", NULL };
  const char *args[] = { "doctor", "--proc-root", root, "--nsys", "/nonexistent/nsys", NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (run_cli (dir, (char **) env, args, &out, &err), ==, 1);
  g_assert_nonnull (strstr (out, "[error] /nonexistent/nsys: no such program"));
  g_assert_nonnull (strstr (out, "[error] ncu: not found on PATH"));
  g_assert_nonnull (strstr (out, "https://developer.nvidia.com/nsight-compute"));
  g_assert_nonnull (strstr (out, "[ok] kernel.perf_event_paranoid is 2"));
  g_assert_nonnull (strstr (out, "[ok] Every user may read GPU counters"));
  ws_test_rmtree (dir);
}

/* What the two ranks' kernel summaries replayed by the stand-in say
 * (tests/data/multirank-nccl/rank*_cuda_gpu_kern_sum.csv, read here): the
 * ns of each NCCL kernel (ncclDevKernel_*, its name the last field) summed
 * over the ranks, and the ns of all the kernels. */
static GHashTable *
nccl_totals_of_summaries (gint64 *all_total)
{
  GHashTable *totals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  *all_total = 0;
  for (int rank = 0; rank < 2; rank++)
    {
      g_autofree char *name = g_strdup_printf ("rank%d_cuda_gpu_kern_sum.csv", rank);
      g_autofree char *path = ws_test_data ("multirank-nccl", name, NULL);
      g_autofree char *text = ws_test_read (path);
      g_auto (GStrv) lines = NULL;

      g_assert_nonnull (text);
      lines = g_strsplit (text, "\n", -1);
      g_assert_true (g_str_has_prefix (lines[0], "Time (%),Total Time (ns),"));
      for (guint i = 1; lines[i] != NULL; i++)
        {
          const char *comma = strchr (lines[i], ',');
          const char *kernel = strstr (lines[i], ",ncclDevKernel_");
          gint64 ns;
          gint64 *sum;

          if (comma == NULL)
            continue;
          ns = g_ascii_strtoll (comma + 1, NULL, 10);
          *all_total += ns;
          if (kernel == NULL)
            continue;
          sum = g_hash_table_lookup (totals, kernel + 1);
          if (sum == NULL)
            {
              sum = g_new0 (gint64, 1);
              g_hash_table_insert (totals, g_strstrip (g_strdup (kernel + 1)), sum);
            }
          *sum += ns;
        }
    }
  return totals;
}

/* Issue 30's capture, `capture --per-rank --topn 3` of a DDP job over NCCL
 * (the real two-GPU job's summaries, replayed by the stand-in nsys): the
 * all-reduce that took the most time is left out, as every ncclDevKernel_*,
 * the log and run.json say so with their share of GPU time, and ncu runs
 * over the three next kernels only, never a communication kernel. */
static void
test_per_rank_nccl_left_out (void)
{
  g_autofree char *dir = ws_test_tmpdir ();
  g_autofree char *calls = g_build_filename (dir, "calls.txt", NULL);
  g_autofree char *script = g_build_filename (dir, "train.py", NULL);
  g_autofree char *targets =
    write_targets (dir, "NAME\tCMD\tWORKDIR\tENVS\n"
                        "ddp\ttorchrun --nproc_per_node 2 train.py\t-\tWS_NSYS_JOB=nccl\n");
  g_autofree char *manifest = g_build_filename (dir, "out/targets/ddp/run.json", NULL);
  const char *extra[] = { NULL, NULL };
  g_auto (GStrv) env = NULL;
  const char *args[] = { "capture", "--per-rank", "--targets", "targets.tsv", "--topn", "3", NULL };
  g_autofree char *out = NULL, *err = NULL, *log = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonArray *kernels, *left_out;
  gint64 total, left_total = 0, all_total = 0, previous = G_MAXINT64;
  double left_share = 0;
  g_autoptr (GHashTable) nccl = nccl_totals_of_summaries (&all_total);

  g_assert_true (g_file_set_contents (script, "print('training')\n", -1, NULL));
  extra[0] = g_strconcat ("WS_STANDIN_CALLS=", calls, NULL);
  env = stand_in_env (extra);
  g_free ((char *) extra[0]);

  g_assert_cmpint (run_cli (dir, env, args, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "  left out: "));
  g_assert_nonnull (strstr (out, " communication kernels, "));
  g_assert_nonnull (strstr (out, "     ncclDevKernel_AllReduce_Sum_f32_RING_LL("));

  g_assert_true (json_parser_load_from_file (parser, manifest, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  kernels = json_object_get_array_member (root, "kernels");
  left_out = json_object_get_array_member (root, "left_out");
  total = json_object_get_int_member (root, "kernels_total_ns");
  g_assert_cmpuint (json_array_get_length (kernels), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_false (ws_kernel_name_is_communication (
      json_object_get_string_member (json_array_get_object_element (kernels, i), "name")));
  /* Every NCCL kernel of the summaries, each once however many ranks ran
   * it (three: all-reduce, broadcast, all-gather), largest first. */
  g_assert_cmpuint (json_array_get_length (left_out), ==, g_hash_table_size (nccl));
  g_assert_cmpint (total, ==, all_total);
  g_assert_true (g_str_has_prefix (
    json_object_get_string_member (json_array_get_object_element (left_out, 0), "name"),
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
  for (guint i = 0; i < json_array_get_length (left_out); i++)
    {
      JsonObject *kernel = json_array_get_object_element (left_out, i);

      g_assert_true (
        g_str_has_prefix (json_object_get_string_member (kernel, "name"), "ncclDevKernel_"));
      g_assert_cmpstr (json_object_get_string_member (kernel, "reason"), ==, "communication");
      g_assert_nonnull (g_hash_table_lookup (nccl, json_object_get_string_member (kernel, "name")));
      g_assert_cmpint (
        json_object_get_int_member (kernel, "total_ns"), ==,
        *(gint64 *) g_hash_table_lookup (nccl, json_object_get_string_member (kernel, "name")));
      g_assert_cmpint (json_object_get_int_member (kernel, "total_ns"), <, previous);
      previous = json_object_get_int_member (kernel, "total_ns");
      left_total += json_object_get_int_member (kernel, "total_ns");
      left_share += json_object_get_double_member (kernel, "share_pct");
    }
  g_assert_cmpfloat_with_epsilon (left_share, 100.0 * (double) left_total / (double) total, 1e-9);

  /* Three ncu runs, none with a communication kernel in its regex. */
  log = ws_test_read (calls);
  {
    g_auto (GStrv) lines = g_strsplit (log, "\n", -1);
    guint ncu_runs = 0;

    for (guint i = 0; lines[i] != NULL; i++)
      if (g_str_has_prefix (lines[i], "ncu -f -o "))
        {
          ncu_runs++;
          g_assert_null (strstr (lines[i], "regex:nccl"));
          g_assert_null (strstr (lines[i], "|nccl"));
          g_assert_null (strstr (lines[i], "(nccl"));
          g_assert_null (strstr (lines[i], "--replay-mode"));
        }
    g_assert_cmpuint (ncu_runs, ==, 3);
  }
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/capture/two-targets", test_two_targets);
  g_test_add_func ("/cli/capture/per-rank-torchrun-and-mpirun", test_per_rank);
  g_test_add_func ("/cli/capture/per-rank-nccl-kernels-left-out", test_per_rank_nccl_left_out);
  g_test_add_func ("/cli/capture/failed-target-exits-1", test_failed_target);
  g_test_add_func ("/cli/capture/bad-input-exits-2", test_bad_input);
  g_test_add_func ("/cli/capture/log-never-replaces-targets", test_log_never_replaces_targets);
  g_test_add_func ("/cli/capture/environment-then-options", test_environment);
  g_test_add_func ("/cli/capture/ctrl-c-ends-every-process", test_interrupt);
  g_test_add_func ("/cli/doctor/problems-and-fixes", test_doctor);
  g_test_add_func ("/cli/doctor/missing-tools", test_doctor_missing_tools);

  return g_test_run ();
}
