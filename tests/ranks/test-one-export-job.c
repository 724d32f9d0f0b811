/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>
#include <string.h>

#include "ws-lanes.h"
#include "ws-run-loader.h"
#include "ws-test-util.h"

/* One export of a whole job (issue 30, item 5): `nsys profile torchrun
 * --nproc_per_node 4` on four H200s writes one SQLite file holding four
 * processes (tests/data/captures/h200x4_ddp_one_export_capture.tar.xz,
 * made by tests/device/capture-jobs.sh ddp-one: DDP over NCCL, 12 steps,
 * rank 1 does extra matrix products in `forward` > `extra work`).  It is a
 * job of four ranks in `ranks`, and the straggler, its
 * lateness and each rank's waiting are what SQL written here says:
 *
 * - a rank is a process, numbered by pid (torchrun starts them in rank
 *   order; each pid's kernels run on the GPU of its number, checked here);
 * - the n-th NCCL kernel of a stream is the n-th collective of that
 *   stream's communicator in every process (each runs its communicators on
 *   streams 7 and 19);
 * - each rank's clock is aligned on rank 0's by the median offset of the
 *   collectives' ends (one clock here: offsets of microseconds);
 * - at each collective the last arrival (kernel start) is the one the
 *   others wait for; each other rank waits from its arrival to that one,
 *   no longer than its kernel ran;
 * - a collective belongs to the step (`step N`, any thread of the
 *   process) that holds its launch call; the last rank's lead at it is its
 *   arrival less the median of the others'; a rank's lateness in a step is
 *   its largest lead there (0 where it never came last), and the
 *   straggler's lateness is the median over the steady steps: steps 1 to
 *   11 (step 0 holds NCCL's and cuBLAS's set-up, 2 s against 32 ms). */

#define N_RANKS 4

static char *tmp;
static char *db;

typedef struct
{
  gint64 pid;
  GArray *start, *end; /* gint64, by stream then order */
  GArray *stream, *step;
} Rank;

static Rank ranks[N_RANKS];

static void
unpack (void)
{
  if (db != NULL)
    return;
  tmp = ws_test_unpack ("captures/h200x4_ddp_one_export_capture.tar.xz");
  db = g_build_filename (tmp, "ddp_one", "nsys", "ddp_one.sqlite", NULL);
  g_assert_true (g_file_test (db, G_FILE_TEST_IS_REGULAR));
}

static gint64
median (gint64 *values, guint n)
{
  g_autofree gint64 *copy = g_memdup2 (values, n * sizeof (gint64));

  /* Odd counts only here (129 collectives, 3 others, 11 steps). */
  g_assert_cmpuint (n % 2, ==, 1);
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && copy[j - 1] > copy[j]; j--)
      {
        gint64 t = copy[j];

        copy[j] = copy[j - 1];
        copy[j - 1] = t;
      }
  return copy[n / 2];
}

/* The processes by pid, each with its NCCL kernels (ordered by stream,
 * then start) and the step of each kernel's launch call. */
static void
load_ranks (void)
{
  sqlite3 *sql;
  sqlite3_stmt *stmt;
  guint n = 0;

  unpack ();
  if (ranks[0].start != NULL)
    return;
  g_assert_cmpint (sqlite3_open_v2 (db, &sql, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (sql,
                                       "SELECT DISTINCT (globalPid >> 24) & 16777215 AS p FROM "
                                       "CUPTI_ACTIVITY_KIND_KERNEL ORDER BY p",
                                       -1, &stmt, NULL),
                   ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      g_assert_cmpuint (n, <, N_RANKS);
      ranks[n++].pid = sqlite3_column_int64 (stmt, 0);
    }
  sqlite3_finalize (stmt);
  g_assert_cmpuint (n, ==, N_RANKS);

  g_assert_cmpint (
    sqlite3_prepare_v2 (
      sql,
      "SELECT k.streamId, k.start, k.end, (SELECT CAST (substr (v.text, 6) AS INTEGER) FROM "
      "NVTX_EVENTS v WHERE v.text LIKE 'step %' AND (v.globalTid >> 24) & 16777215 = ?1 AND "
      "v.start <= a.start AND a.start < v.end) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds i "
      "ON i.id = k.shortName JOIN CUPTI_ACTIVITY_KIND_RUNTIME a ON a.correlationId = "
      "k.correlationId AND (a.globalTid >> 24) & 16777215 = ?1 WHERE i.value LIKE 'nccl%' AND "
      "(k.globalPid >> 24) & 16777215 = ?1 ORDER BY k.streamId, k.start",
      -1, &stmt, NULL),
    ==, SQLITE_OK);
  for (guint r = 0; r < N_RANKS; r++)
    {
      ranks[r].start = g_array_new (FALSE, FALSE, sizeof (gint64));
      ranks[r].end = g_array_new (FALSE, FALSE, sizeof (gint64));
      ranks[r].stream = g_array_new (FALSE, FALSE, sizeof (gint64));
      ranks[r].step = g_array_new (FALSE, FALSE, sizeof (gint64));
      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, 1, ranks[r].pid);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          gint64 v[4] = { sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1),
                          sqlite3_column_int64 (stmt, 2),
                          sqlite3_column_type (stmt, 3) == SQLITE_NULL
                            ? -1
                            : sqlite3_column_int64 (stmt, 3) };

          g_array_append_val (ranks[r].stream, v[0]);
          g_array_append_val (ranks[r].start, v[1]);
          g_array_append_val (ranks[r].end, v[2]);
          g_array_append_val (ranks[r].step, v[3]);
        }
    }
  sqlite3_finalize (stmt);
  sqlite3_close (sql);
  /* The same collectives, in the same order, on every rank. */
  for (guint r = 1; r < N_RANKS; r++)
    {
      g_assert_cmpuint (ranks[r].start->len, ==, ranks[0].start->len);
      for (guint i = 0; i < ranks[0].stream->len; i++)
        g_assert_cmpint (g_array_index (ranks[r].stream, gint64, i), ==,
                         g_array_index (ranks[0].stream, gint64, i));
    }
}

static JsonObject *
ranks_json (const char *input, JsonParser *parser)
{
  const char *args[] = { "ranks", "--format", "json", input, NULL };
  g_autofree char *out = ws_test_cli_expect (args, 0, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* What SQL says of the job: each rank's waiting, and the straggler with
 * its lateness (see the top of this file). */
typedef struct
{
  gint64 wait[N_RANKS];
  gint straggler;
  gint64 late;
} Truth;

static void
work_out (Truth *truth)
{
  guint n = ranks[0].start->len;
  gint64 offset[N_RANKS] = { 0 };
  g_autofree gint64 *d = g_new (gint64, n);
  gint64 lead[N_RANKS][12] = { { 0 } };
  guint last_count[N_RANKS] = { 0 };
  gint64 steady[11];

  memset (truth, 0, sizeof *truth);
  for (guint r = 1; r < N_RANKS; r++)
    {
      for (guint i = 0; i < n; i++)
        d[i] = g_array_index (ranks[0].end, gint64, i) - g_array_index (ranks[r].end, gint64, i);
      offset[r] = median (d, n);
    }
  for (guint i = 0; i < n; i++)
    {
      gint64 arrival[N_RANKS], others[N_RANKS - 1];
      guint last = 0, k = 0;
      gint64 step;

      for (guint r = 0; r < N_RANKS; r++)
        {
          arrival[r] = g_array_index (ranks[r].start, gint64, i) + offset[r];
          if (arrival[r] > arrival[last])
            last = r;
        }
      for (guint r = 0; r < N_RANKS; r++)
        {
          gint64 end = g_array_index (ranks[r].end, gint64, i) + offset[r];

          truth->wait[r] += MAX (0, MIN (end, arrival[last]) - arrival[r]);
          if (r != last)
            others[k++] = arrival[r];
        }
      step = g_array_index (ranks[last].step, gint64, i);
      if (step >= 1 && step <= 11)
        {
          lead[last][step] = MAX (lead[last][step], arrival[last] - median (others, k));
          last_count[last]++;
        }
    }
  truth->straggler = 0;
  for (guint r = 1; r < N_RANKS; r++)
    if (last_count[r] > last_count[truth->straggler])
      truth->straggler = (gint) r;
  for (guint s = 1; s <= 11; s++)
    steady[s - 1] = lead[truth->straggler][s];
  truth->late = median (steady, 11);
}

/* A `ranks --format json` of this job against what SQL says: four ranks
 * numbered by process, each waiting what SQL says, the straggler rank 1
 * named with `extra work` and its lateness. */
static void
check_ranks_json (JsonObject *root, const Truth *truth)
{
  JsonObject *straggler;
  JsonArray *list;

  g_assert_cmpstr (json_object_get_string_member (root, "numbered_by"), ==, "process");
  g_assert_cmpstr (json_object_get_string_member (root, "method"), ==, "nccl");
  g_assert_cmpint (json_object_get_int_member (root, "collectives_matched"), ==,
                   ranks[0].start->len);
  list = json_object_get_array_member (root, "ranks");
  g_assert_cmpuint (json_array_get_length (list), ==, N_RANKS);
  for (guint r = 0; r < N_RANKS; r++)
    {
      JsonObject *rank = json_array_get_object_element (list, r);
      JsonArray *per_step = json_object_get_array_member (rank, "per_step");
      gint64 sum = 0;

      g_assert_cmpint (json_object_get_int_member (rank, "rank"), ==, r);
      /* Its waiting is its steps' losses summed (docs/NOTES.md, "What a
       * straggler costs"), each within its step less its own work; the
       * arrival waits of @truth overlap its compute (issue 40). */
      for (guint i = 0; i < json_array_get_length (per_step); i++)
        {
          JsonObject *step = json_array_get_object_element (per_step, i);
          gint64 wait = json_object_get_int_member (step, "wait_ns");

          g_assert_cmpint (wait, <=,
                           json_object_get_int_member (step, "wall_ns") -
                             json_object_get_int_member (step, "work_ns"));
          sum += wait;
        }
      g_assert_cmpint (json_object_get_int_member (rank, "wait_ns"), ==, sum);
    }
  straggler = json_object_get_object_member (root, "straggler");
  g_assert_nonnull (straggler);
  g_assert_cmpint (json_object_get_int_member (straggler, "rank"), ==, truth->straggler);
  g_assert_cmpint (json_object_get_int_member (straggler, "late_ns"), ==, truth->late);
  g_assert_cmpstr (json_object_get_string_member (straggler, "range"), ==, "extra work");
}

/* Four ranks, numbered by pid, each on the GPU of its number; the
 * straggler is the process that runs `extra work`, named with that range
 * and its lateness; each rank waits what SQL says. */
static void
test_job_of_one_export (void)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *folder = NULL;
  g_autofree char *planted_pid = NULL;
  Truth truth;

  load_ranks ();
  folder = g_build_filename (tmp, "ddp_one", NULL);
  for (guint r = 0; r < N_RANKS; r++)
    {
      g_autofree char *sql = g_strdup_printf (
        "SELECT group_concat (DISTINCT deviceId) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE "
        "(globalPid >> 24) & 16777215 = %" G_GINT64_FORMAT,
        ranks[r].pid);
      g_autofree char *devices = ws_test_sqlite_text (db, sql);
      g_autofree char *want = g_strdup_printf ("%u", r);

      g_assert_cmpstr (devices, ==, want);
    }
  planted_pid = ws_test_sqlite_text (db, "SELECT DISTINCT (globalTid >> 24) & 16777215 FROM "
                                         "NVTX_EVENTS WHERE text = 'extra work'");
  g_assert_cmpint (g_ascii_strtoll (planted_pid, NULL, 10), ==, ranks[1].pid);

  work_out (&truth);
  g_test_message ("SQL: straggler rank %d, late %" G_GINT64_FORMAT " ns", truth.straggler,
                  truth.late);
  g_assert_cmpint (truth.straggler, ==, 1);
  check_ranks_json (ranks_json (folder, parser), &truth);
}

/* The fields of a rank that a digest keeps as the export gives them
 * (its file's path differs: the digest's is relative). */
static const char *const same_fields[] = {
  "process",        "clock_offset_ns", "gpu_time_ns",    "kernel_ns",
  "comm_ns",        "comm_hidden_ns",  "idle_ns",        "wait_ns",
  "step_median_ns", "wait_median_ns",  "work_median_ns", "steps",
};

static void
check_same_ranks (JsonObject *digest, JsonObject *export)
{
  JsonArray *a = json_object_get_array_member (digest, "ranks");
  JsonArray *b = json_object_get_array_member (export, "ranks");

  g_assert_cmpuint (json_array_get_length (a), ==, json_array_get_length (b));
  for (guint r = 0; r < json_array_get_length (a); r++)
    {
      JsonObject *x = json_array_get_object_element (a, r);
      JsonObject *y = json_array_get_object_element (b, r);

      for (guint f = 0; f < G_N_ELEMENTS (same_fields); f++)
        {
          JsonNode *u = json_object_get_member (x, same_fields[f]);
          JsonNode *v = json_object_get_member (y, same_fields[f]);

          g_test_message ("rank %u: %s", r, same_fields[f]);
          g_assert_nonnull (u);
          g_assert_nonnull (v);
          g_assert_true (json_node_equal (u, v));
        }
    }
}

/* The fields of one line of nsys stats' CSV (quoted fields may hold
 * commas: template arguments). */
static GPtrArray *
csv_fields (const char *line)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = line; *p != '\0'; p++)
    {
      if (*p == '"')
        {
          if (quoted && p[1] == '"')
            {
              g_string_append_c (field, '"');
              p++;
            }
          else
            quoted = !quoted;
        }
      else if (*p == ',' && !quoted)
        {
          g_ptr_array_add (out, g_string_free (field, FALSE));
          field = g_string_new (NULL);
        }
      else
        g_string_append_c (field, *p);
    }
  g_ptr_array_add (out, g_string_free (field, FALSE));
  return out;
}

/* The instances and total time of `stats --format csv --rank R` (the
 * kernel summary, nsys stats' cuda_gpu_kern_sum), summed over its rows. */
static void
kernel_summary (const char *digest, guint rank, gint64 *instances, gint64 *total)
{
  g_autofree char *number = g_strdup_printf ("%u", rank);
  const char *args[] = { "stats", "--format", "csv", "--rank", number, digest, NULL };
  g_autofree char *out = ws_test_cli_expect (args, 0, NULL);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  g_autoptr (GPtrArray) header = csv_fields (lines[0]);
  gint at_instances = -1, at_total = -1;

  for (guint i = 0; i < header->len; i++)
    if (g_str_equal (g_ptr_array_index (header, i), "Instances"))
      at_instances = (gint) i;
    else if (g_str_equal (g_ptr_array_index (header, i), "Total Time (ns)"))
      at_total = (gint) i;
  g_assert_cmpint (at_instances, >=, 0);
  g_assert_cmpint (at_total, >=, 0);
  *instances = *total = 0;
  for (guint l = 1; lines[l] != NULL && *lines[l] != '\0'; l++)
    {
      g_autoptr (GPtrArray) row = csv_fields (lines[l]);

      g_assert_cmpuint (row->len, ==, header->len);
      *instances += g_ascii_strtoll (g_ptr_array_index (row, at_instances), NULL, 10);
      *total += g_ascii_strtoll (g_ptr_array_index (row, at_total), NULL, 10);
    }
}

static char *
digest_of (const char *input, const char *name)
{
  char *out = g_build_filename (tmp, name, NULL);
  const char *args[] = { "digest", "-o", out, input, NULL };
  g_autofree char *said = ws_test_cli_expect (args, 0, NULL);

  /* One export, four ranks of it. */
  g_assert_nonnull (strstr (said, "1 of 1 exports digested"));
  return out;
}

/* `digest` of the one export keeps the job of four ranks: `ranks` on the
 * digest says what SQL says (the straggler, its lateness, each rank's
 * wait) and what `ranks` says on the export; each rank's kernel summary
 * is its own process's kernels (SQL), not the four processes'. */
static void
test_digest_keeps_the_job (void)
{
  g_autoptr (JsonParser) p_export = json_parser_new ();
  g_autoptr (JsonParser) p_digest = json_parser_new ();
  g_autofree char *folder = NULL;
  g_autofree char *digest = NULL;
  JsonObject *from_digest;
  Truth truth;

  load_ranks ();
  work_out (&truth);
  folder = g_build_filename (tmp, "ddp_one", NULL);
  digest = digest_of (folder, "job.wsdigest");
  from_digest = ranks_json (digest, p_digest);
  check_ranks_json (from_digest, &truth);
  check_same_ranks (from_digest, ranks_json (db, p_export));
  for (guint r = 0; r < N_RANKS; r++)
    {
      g_autofree char *sql = g_strdup_printf (
        "SELECT count(*) || ' ' || sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE "
        "(globalPid >> 24) & 16777215 = %" G_GINT64_FORMAT,
        ranks[r].pid);
      g_autofree char *want = ws_test_sqlite_text (db, sql);
      g_autofree char *got = NULL;
      gint64 instances, total;

      kernel_summary (digest, r, &instances, &total);
      got = g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT, instances, total);
      g_assert_cmpstr (got, ==, want);
    }
}

/* `digest --mpi` under mpirun: the one export is one task, whose four
 * ranks travel together; the digest says what SQL says, as with threads. */
static void
test_digest_mpi (void)
{
  g_autoptr (JsonParser) p_threads = json_parser_new ();
  g_autoptr (JsonParser) p_mpi = json_parser_new ();
  g_autofree char *launcher = g_find_program_in_path ("mpirun");
  g_autofree char *out = NULL;
  g_autofree char *threads = NULL;
  WsTestRun run;
  Truth truth;

  if (!HAVE_MPI || launcher == NULL)
    {
      g_test_skip ("built without MPI, or no mpirun");
      return;
    }
  load_ranks ();
  work_out (&truth);
  out = g_build_filename (tmp, "mpi.wsdigest", NULL);
  {
    /* ASAN_OPTIONS: as in test-cli-digest.c, Open MPI's own allocations. */
    const char *argv[] = { launcher,
                           "--oversubscribe",
                           "-x",
                           "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1",
                           "--allow-run-as-root",
                           "-n",
                           "2",
                           ws_test_cli (),
                           "digest",
                           "--mpi",
                           "-o",
                           out,
                           db,
                           NULL };

    ws_test_run_bounded (argv, 300, &run);
    if (run.status != 0)
      g_printerr ("%s\n%s\n", run.out, run.err);
    g_assert_cmpint (run.status, ==, 0);
  }
  g_assert_nonnull (strstr (run.out, "1 of 1 exports digested"));
  g_assert_nonnull (strstr (run.out, "(mpi 2 processes)"));
  ws_test_run_clear (&run);
  check_ranks_json (ranks_json (out, p_mpi), &truth);
  threads = digest_of (db, "threads.wsdigest");
  check_same_ranks (ranks_json (out, p_mpi), ranks_json (threads, p_threads));
}

/* The timeline of the export: one group per rank, in rank order, each
 * holding the lanes of its process's streams, on its GPU (SQL: the
 * streams and device of each pid's kernels and memory operations). */
static void
test_timeline_by_rank (void)
{
  const char *paths[] = { NULL, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (WsRun) run = NULL;
  g_autoptr (WsLanes) lanes = NULL;
  g_autoptr (GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  guint groups = 0;
  gint current = -1;
  gboolean other_process = FALSE;

  load_ranks ();
  paths[0] = db;
  run = ws_run_load (paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  lanes = ws_lanes_new (run);
  for (guint r = 0; r < N_RANKS; r++)
    g_ptr_array_add (seen, g_strdup (""));
  for (guint l = 0; l < ws_lanes_get_n_lanes (lanes); l++)
    {
      const WsLane *lane = ws_lanes_get_lane (lanes, l);

      if (lane->kind == WS_LANE_GROUP && lane->group_kind == WS_GROUP_PROCESS && lane->rank >= 0)
        {
          /* The ranks first, in rank order. */
          g_assert_false (other_process);
          g_assert_cmpint (lane->rank, ==, (gint) groups);
          g_assert_cmpuint (lane->pid, ==, ranks[groups].pid);
          current = (gint) groups++;
        }
      else if (lane->kind == WS_LANE_GROUP)
        {
          /* A GPU's metrics, or a process that ran nothing on a GPU (the
           * launcher): no stream lane under it. */
          other_process = other_process || lane->group_kind == WS_GROUP_PROCESS;
          current = -1;
        }
      else if (lane->kind == WS_LANE_STREAM)
        {
          const WsStream *stream = &g_array_index (run->streams, WsStream, lane->stream);
          char *list = g_ptr_array_index (seen, current);

          /* Every stream is in the group of its process's rank. */
          g_assert_cmpint (current, >=, 0);
          g_assert_cmpuint (stream->pid, ==, ranks[current].pid);
          g_assert_cmpint (lane->rank, ==, current);
          g_assert_cmpint (lane->device, ==, stream->device_id);
          seen->pdata[current] = g_strdup_printf ("%s%s%d:%d", list, *list != '\0' ? "," : "",
                                                  stream->stream_id, stream->device_id);
          g_free (list);
        }
    }
  g_assert_cmpuint (groups, ==, N_RANKS);
  for (guint r = 0; r < N_RANKS; r++)
    {
      g_autofree char *sql = g_strdup_printf (
        "SELECT group_concat (s, ',') FROM (SELECT DISTINCT streamId || ':' || deviceId AS s, "
        "streamId AS i FROM (SELECT streamId, deviceId, globalPid FROM "
        "CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT streamId, deviceId, globalPid FROM "
        "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT streamId, deviceId, globalPid FROM "
        "CUPTI_ACTIVITY_KIND_MEMSET) WHERE (globalPid >> 24) & 16777215 = %" G_GINT64_FORMAT
        " ORDER BY i)",
        ranks[r].pid);
      g_autofree char *want = ws_test_sqlite_text (db, sql);

      g_test_message ("rank %u: streams %s", r, (const char *) g_ptr_array_index (seen, r));
      g_assert_cmpstr (g_ptr_array_index (seen, r), ==, want);
    }
}

/* The ids of `diagnose --format json`'s findings on @input, joined by
 * spaces. */
static char *
finding_ids (const char *input)
{
  const char *args[] = { "diagnose", "--format", "json", input, NULL };
  g_autofree char *out = ws_test_cli_expect (args, 0, NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) ids = g_string_new (NULL);
  JsonArray *list;

  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  list =
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "findings");
  for (guint i = 0; i < json_array_get_length (list); i++)
    g_string_append_printf (
      ids, "%s%s", i > 0 ? " " : "",
      json_object_get_string_member (json_array_get_object_element (list, i), "id"));
  return g_string_free (g_steal_pointer (&ids), FALSE);
}

/* Findings compare streams only within a process.  Each process runs its
 * compute kernels on one stream (SQL), so no process splits one kernel's
 * work over streams and no load imbalance between streams is right; with
 * the four ranks put on one GPU (a copy of the export, deviceId 0
 * everywhere), the same kernels of different processes run side by side
 * on it (SQL: overlapping pairs), and the imbalance check must still not
 * read them as one program's streams.  The ranks sharing the GPU are
 * said instead. */
static void
test_findings_within_process (void)
{
  g_autofree char *shared = NULL;
  g_autofree char *streams = NULL;
  g_autofree char *pairs = NULL;
  g_autofree char *ids = NULL;
  g_autofree char *ids_shared = NULL;
  g_autoptr (GFile) from = NULL;
  g_autoptr (GFile) to = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) list = NULL;

  load_ranks ();
  streams = ws_test_sqlite_text (
    db, "SELECT max (n) FROM (SELECT count (DISTINCT k.streamId) AS n FROM "
        "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds i ON i.id = k.shortName WHERE i.value NOT "
        "LIKE 'nccl%' GROUP BY (k.globalPid >> 24) & 16777215)");
  g_assert_cmpstr (streams, ==, "1");
  ids = finding_ids (db);
  g_test_message ("findings: %s", ids);
  list = g_strsplit (ids, " ", -1);
  g_assert_false (g_strv_contains ((const char *const *) list, "load-imbalance"));
  g_assert_true (g_strv_contains ((const char *const *) list, "rank-imbalance"));
  g_clear_pointer (&list, g_strfreev);

  shared = g_build_filename (tmp, "shared_gpu.sqlite", NULL);
  from = g_file_new_for_path (db);
  to = g_file_new_for_path (shared);
  g_assert_true (g_file_copy (from, to, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  ws_test_sqlite_exec (shared, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET deviceId = 0; "
                               "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET deviceId = 0; "
                               "UPDATE CUPTI_ACTIVITY_KIND_MEMSET SET deviceId = 0; "
                               "CREATE INDEX test_by_name ON CUPTI_ACTIVITY_KIND_KERNEL "
                               "(shortName, start)");
  pairs = ws_test_sqlite_text (
    shared, "SELECT count (*) FROM CUPTI_ACTIVITY_KIND_KERNEL a JOIN CUPTI_ACTIVITY_KIND_KERNEL b "
            "ON b.shortName = a.shortName AND b.start >= a.start AND b.start < a.end AND "
            "(a.globalPid >> 24) <> (b.globalPid >> 24) AND a.gridX = b.gridX AND a.blockX = "
            "b.blockX JOIN StringIds i ON i.id = a.shortName WHERE i.value NOT LIKE 'nccl%'");
  g_test_message ("kernels of one name side by side in two processes: %s pairs", pairs);
  g_assert_cmpint (g_ascii_strtoll (pairs, NULL, 10), >, 0);
  ids_shared = finding_ids (shared);
  g_test_message ("findings on one GPU: %s", ids_shared);
  list = g_strsplit (ids_shared, " ", -1);
  g_assert_false (g_strv_contains ((const char *const *) list, "load-imbalance"));
  g_assert_true (g_strv_contains ((const char *const *) list, "shared-gpu"));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/one-export-job/ranks-straggler-waits-as-sql-says", test_job_of_one_export);
  g_test_add_func ("/one-export-job/digest-keeps-four-ranks", test_digest_keeps_the_job);
  g_test_add_func ("/one-export-job/digest-mpi-keeps-four-ranks", test_digest_mpi);
  g_test_add_func ("/one-export-job/timeline-groups-by-rank", test_timeline_by_rank);
  g_test_add_func ("/one-export-job/findings-compare-streams-within-a-process",
                   test_findings_within_process);
  status = g_test_run ();
  for (guint r = 0; r < N_RANKS; r++)
    if (ranks[r].start != NULL)
      {
        g_array_unref (ranks[r].start);
        g_array_unref (ranks[r].end);
        g_array_unref (ranks[r].stream);
        g_array_unref (ranks[r].step);
      }
  if (tmp != NULL)
    ws_test_rmtree (tmp);
  g_free (tmp);
  g_free (db);
  return status;
}
