/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>
#include <string.h>

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

/* Four ranks, numbered by pid, each on the GPU of its number; the
 * straggler is the process that runs `extra work`, named with that range
 * and its lateness; each rank waits what SQL says. */
static void
test_job_of_one_export (void)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *folder = NULL;
  g_autofree char *planted_pid = NULL;
  JsonObject *root, *straggler;
  JsonArray *list;
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

  root = ranks_json (folder, parser);
  g_assert_cmpstr (json_object_get_string_member (root, "numbered_by"), ==, "process");
  g_assert_cmpstr (json_object_get_string_member (root, "method"), ==, "nccl");
  g_assert_cmpint (json_object_get_int_member (root, "collectives_matched"), ==,
                   ranks[0].start->len);
  list = json_object_get_array_member (root, "ranks");
  g_assert_cmpuint (json_array_get_length (list), ==, N_RANKS);
  for (guint r = 0; r < N_RANKS; r++)
    {
      JsonObject *rank = json_array_get_object_element (list, r);

      g_assert_cmpint (json_object_get_int_member (rank, "rank"), ==, r);
      g_assert_cmpint (json_object_get_int_member (rank, "wait_ns"), ==, truth.wait[r]);
    }
  straggler = json_object_get_object_member (root, "straggler");
  g_assert_nonnull (straggler);
  g_assert_cmpint (json_object_get_int_member (straggler, "rank"), ==, truth.straggler);
  g_assert_cmpint (json_object_get_int_member (straggler, "late_ns"), ==, truth.late);
  g_assert_cmpstr (json_object_get_string_member (straggler, "range"), ==, "extra work");
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/one-export-job/ranks-straggler-waits-as-sql-says", test_job_of_one_export);
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
