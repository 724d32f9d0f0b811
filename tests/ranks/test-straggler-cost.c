/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <sqlite3.h>
#include <string.h>

#include "ws-format.h"
#include "ws-test-util.h"

/* Issue 40, item 2: what a straggler costs (docs/NOTES.md, "What a
 * straggler costs"), against SQL over the real jobs of tests/data.
 *
 * A rank's loss in a step, with NCCL: |C ∩ step| − |C ∩ W ∩ step|, C the
 * union of its NCCL kernels, W the union of its other kernels, copies and
 * sets.  It never exceeds the step's wall less its own work |W ∩ step|.
 * The table's waiting is its steps' losses summed; the per-step waits are
 * the losses; what the others lose to the straggler is, per steady step,
 * Σ over the others of min(loss, lateness), its median over the steady
 * steps, never more than (ranks − 1) × the lateness. */

static char *tmp;
static GPtrArray *unpacked; /* folders to remove */

typedef struct
{
  gint64 s, e;
} Span;

static int
compare_spans (gconstpointer a, gconstpointer b)
{
  const Span *x = a, *y = b;

  return (x->s > y->s) - (x->s < y->s);
}

/* @spans sorted and merged into disjoint intervals. */
static void
merge (GArray *spans)
{
  guint k = 0;

  g_array_sort (spans, compare_spans);
  for (guint i = 0; i < spans->len; i++)
    {
      Span x = g_array_index (spans, Span, i);

      if (x.e <= x.s)
        continue;
      if (k > 0 && x.s <= g_array_index (spans, Span, k - 1).e)
        g_array_index (spans, Span, k - 1).e = MAX (g_array_index (spans, Span, k - 1).e, x.e);
      else
        g_array_index (spans, Span, k++) = x;
    }
  g_array_set_size (spans, k);
}

/* |@u ∩ [@s, @e)| for merged @u. */
static gint64
covered (GArray *u, gint64 s, gint64 e)
{
  gint64 total = 0;

  for (guint i = 0; i < u->len; i++)
    {
      const Span *x = &g_array_index (u, Span, i);
      gint64 a = MAX (x->s, s), b = MIN (x->e, e);

      if (b > a)
        total += b - a;
    }
  return total;
}

typedef struct
{
  GArray *nccl;  /* C, merged */
  GArray *own;   /* W, merged */
  GArray *both;  /* C ∪ W, merged */
  sqlite3 *conn; /* for the step ranges */
} Rank;

static void
add_rows (sqlite3 *conn, const char *sql, GArray *to)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (conn, sql, -1, &stmt, NULL) != SQLITE_OK)
    return; /* no such table: no copies or sets */
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      Span x = { sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1) };

      g_array_append_val (to, x);
    }
  sqlite3_finalize (stmt);
}

#define NCCL_NAME "(s.value LIKE 'nccl%' OR s.value LIKE 'void nccl%' OR s.value LIKE '_Z%nccl%')"

static void
rank_open (Rank *r, const char *db)
{
  g_assert_cmpint (sqlite3_open_v2 (db, &r->conn, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  r->nccl = g_array_new (FALSE, FALSE, sizeof (Span));
  r->own = g_array_new (FALSE, FALSE, sizeof (Span));
  add_rows (r->conn,
            "SELECT k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s"
            " ON s.id = k.demangledName WHERE " NCCL_NAME,
            r->nccl);
  add_rows (r->conn,
            "SELECT k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s"
            " ON s.id = k.demangledName WHERE NOT " NCCL_NAME,
            r->own);
  add_rows (r->conn, "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY", r->own);
  add_rows (r->conn, "SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET", r->own);
  r->both = g_array_copy (r->own);
  g_array_append_vals (r->both, r->nccl->data, r->nccl->len);
  merge (r->nccl);
  merge (r->own);
  merge (r->both);
}

static void
rank_close (Rank *r)
{
  g_array_unref (r->nccl);
  g_array_unref (r->own);
  g_array_unref (r->both);
  sqlite3_close (r->conn);
}

/* Whether the export has an NVTX range "step @number" from @s to @e. */
static gboolean
has_step_range (Rank *r, gint64 number, gint64 s, gint64 e)
{
  g_autofree char *sql =
    g_strdup_printf ("SELECT count(*) FROM NVTX_EVENTS WHERE"
                     " text = 'step %" G_GINT64_FORMAT "' AND start = %" G_GINT64_FORMAT
                     " AND end = %" G_GINT64_FORMAT,
                     number, s, e);
  sqlite3_stmt *stmt = NULL;
  gint64 n = 0;

  g_assert_cmpint (sqlite3_prepare_v2 (r->conn, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    n = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return n > 0;
}

static JsonObject *
cli_json (JsonParser *parser, const char *const *args)
{
  g_autofree char *out = ws_test_cli_expect (args, 0, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static int
compare_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The median as the program takes it: the middle, or the mean of the two
 * middles rounded. */
static gint64
median (GArray *values)
{
  guint n = values->len;

  g_array_sort (values, compare_i64);
  if (n % 2 == 1)
    return g_array_index (values, gint64, n / 2);
  return (g_array_index (values, gint64, n / 2 - 1) + g_array_index (values, gint64, n / 2) + 1) /
         2;
}

typedef struct
{
  const char *name;
  const char *archive;  /* under tests/data/, or NULL */
  const char *files[5]; /* xz exports under tests/data/, without an archive */
  gboolean nccl;
} Job;

static const Job jobs[] = {
  { "ddp_sleep", "captures/h200x4_ddp_sleep_capture.tar.xz", { NULL }, TRUE },
  { "ddp_compute", "captures/h200x4_ddp_compute_capture.tar.xz", { NULL }, TRUE },
  { "ddp_batch", "captures/h200x4_ddp_batch_capture.tar.xz", { NULL }, TRUE },
  { "fsdp", "captures/h200x4_fsdp_capture.tar.xz", { NULL }, TRUE },
  { "multirank-nccl",
    NULL,
    { "multirank-nccl/rank0.sqlite.xz", "multirank-nccl/rank1.sqlite.xz", NULL },
    TRUE },
  { "multirank",
    NULL,
    { "multirank/rank0.sqlite.xz", "multirank/rank1.sqlite.xz", "multirank/rank2.sqlite.xz",
      "multirank/rank3.sqlite.xz", NULL },
    FALSE },
  { "ddp_gloo", "captures/h100_ddp_gloo_capture.tar.xz", { NULL }, FALSE },
};

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* The job's exports, in rank order (the file names say the rank). */
static GPtrArray *
job_files (const Job *job)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);

  if (job->archive != NULL)
    {
      char *dir = ws_test_unpack (job->archive);
      g_autofree char *out = NULL;
      g_autofree char *find = g_find_program_in_path ("find");
      const char *argv[] = { find, dir, "-name", "rank*.sqlite", NULL };
      g_auto (GStrv) lines = NULL;

      g_assert_cmpint (ws_test_run (argv, &out, NULL), ==, 0);
      lines = g_strsplit (g_strstrip (out), "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        g_ptr_array_add (files, g_strdup (lines[i]));
      g_ptr_array_sort (files, compare_paths);
      g_ptr_array_add (unpacked, dir);
    }
  else
    {
      g_autofree char *dir = g_build_filename (tmp, job->name, NULL);

      g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
      for (guint i = 0; job->files[i] != NULL; i++)
        g_ptr_array_add (files, ws_test_unxz (job->files[i], dir));
    }
  g_assert_cmpuint (files->len, >=, 2);
  return files;
}

static char *
duration (gint64 ns)
{
  return ws_format_duration ((double) ns);
}

static void
test_job (gconstpointer data)
{
  const Job *job = data;
  g_autoptr (GPtrArray) files = job_files (job);
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonParser) diag_parser = json_parser_new ();
  g_autofree Rank *ranks = g_new0 (Rank, files->len);
  g_autofree char *table = NULL;
  JsonObject *root, *straggler;
  JsonArray *rank_rows, *steps;
  guint n = files->len;

  g_ptr_array_add (args, "ranks");
  g_ptr_array_add (args, "--format");
  g_ptr_array_add (args, "json");
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (args, g_ptr_array_index (files, i));
  g_ptr_array_add (args, NULL);
  root = cli_json (parser, (const char *const *) args->pdata);
  g_assert_cmpstr (json_object_get_string_member (root, "method"), ==, job->nccl ? "nccl" : "host");
  rank_rows = json_object_get_array_member (root, "ranks");
  steps = json_object_get_array_member (root, "steps");
  g_assert_cmpuint (json_array_get_length (rank_rows), ==, n);

  /* Each rank, each step: its loss as SQL says (NCCL), within its step
   * less its own work; the table's waiting is their sum. */
  for (guint r = 0; r < n; r++)
    {
      JsonObject *row = json_array_get_object_element (rank_rows, r);
      JsonArray *per_step = json_object_get_array_member (row, "per_step");
      gint64 offset = json_object_get_int_member (row, "clock_offset_ns");
      gint64 sum = 0;

      g_assert_cmpint (json_object_get_int_member (row, "rank"), ==, r);
      if (job->nccl)
        rank_open (&ranks[r], g_ptr_array_index (files, r));
      for (guint i = 0; i < json_array_get_length (per_step); i++)
        {
          JsonObject *step = json_array_get_object_element (per_step, i);
          gint64 s = json_object_get_int_member (step, "start_ns") - offset;
          gint64 e = s + json_object_get_int_member (step, "wall_ns");
          gint64 wait = json_object_get_int_member (step, "wait_ns");
          gint64 work = json_object_get_int_member (step, "work_ns");

          g_assert_cmpint (wait, >=, 0);
          g_assert_cmpint (wait, <=, e - s - work);
          sum += wait;
          if (job->nccl)
            {
              gint64 own = covered (ranks[r].own, s, e);
              gint64 loss = covered (ranks[r].nccl, s, e) -
                            (covered (ranks[r].nccl, s, e) + own - covered (ranks[r].both, s, e));

              g_assert_true (
                has_step_range (&ranks[r], json_object_get_int_member (step, "step"), s, e));
              g_assert_cmpint (work, ==, own);
              g_assert_cmpint (wait, ==, loss);
              g_assert_cmpint (loss, <=, (e - s) - own);
            }
        }
      if (json_array_get_length (per_step) > 0 && !json_object_get_null_member (row, "wait_ns"))
        g_assert_cmpint (json_object_get_int_member (row, "wait_ns"), ==, sum);
    }

  /* The per-step waits are the same figures. */
  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      JsonObject *step = json_array_get_object_element (steps, i);
      JsonObject *waits = json_object_get_object_member (step, "waits_for_last_ns");
      guint number = (guint) json_object_get_int_member (step, "step");

      for (guint r = 0; r < n; r++)
        {
          g_autofree char *key = g_strdup_printf ("%u", r);
          JsonObject *row = json_array_get_object_element (rank_rows, r);
          JsonArray *per_step = json_object_get_array_member (row, "per_step");

          if (json_object_get_null_member (row, "wait_ns"))
            {
              g_assert_false (json_object_has_member (waits, key));
              continue;
            }
          for (guint k = 0; k < json_array_get_length (per_step); k++)
            {
              JsonObject *mine = json_array_get_object_element (per_step, k);

              if ((guint) json_object_get_int_member (mine, "step") == number)
                g_assert_cmpint (json_object_get_int_member (waits, key), ==,
                                 json_object_get_int_member (mine, "wait_ns"));
            }
        }
    }

  /* The straggler's cost: never more than (ranks − 1) × its lateness; where
   * it is last in every steady step, the median of Σ min(loss, lateness). */
  if (!json_object_get_null_member (root, "straggler"))
    {
      g_autoptr (GArray) costs = g_array_new (FALSE, FALSE, sizeof (gint64));
      gboolean always_last = TRUE;
      gint64 who, late, lost;

      straggler = json_object_get_object_member (root, "straggler");
      who = json_object_get_int_member (straggler, "rank");
      late = json_object_get_int_member (straggler, "late_ns");
      lost = json_object_get_int_member (straggler, "others_wait_ns");
      g_test_message ("%s: rank %" G_GINT64_FORMAT " +%" G_GINT64_FORMAT
                      " ns; the others lose %" G_GINT64_FORMAT " ns",
                      job->name, who, late, lost);
      g_assert_cmpint (lost, >=, 0);
      g_assert_cmpint (lost, <=, (gint64) (n - 1) * late);
      for (guint i = 0; i < json_array_get_length (steps); i++)
        {
          JsonObject *step = json_array_get_object_element (steps, i);
          JsonObject *waits = json_object_get_object_member (step, "waits_for_last_ns");
          gint64 step_late = json_object_get_int_member (step, "late_ns"), cost = 0;

          if (!json_object_get_boolean_member (step, "steady"))
            continue;
          if (json_object_get_null_member (step, "last_rank") ||
              json_object_get_int_member (step, "last_rank") != who)
            {
              always_last = FALSE;
              continue;
            }
          for (guint r = 0; r < n; r++)
            {
              g_autofree char *key = g_strdup_printf ("%u", r);

              if (r != who && json_object_has_member (waits, key))
                cost += MIN (json_object_get_int_member (waits, key), MAX (step_late, 0));
            }
          g_assert_cmpint (cost, <=, (gint64) (n - 1) * step_late);
          g_array_append_val (costs, cost);
        }
      if (always_last && job->nccl)
        g_assert_cmpint (lost, ==, median (costs));

      /* One number in the table, the CLI's JSON and Findings. */
      {
        g_autoptr (GPtrArray) targs = g_ptr_array_new ();
        g_autoptr (GPtrArray) dargs = g_ptr_array_new ();
        g_autofree char *text = duration (lost);
        g_autofree char *diag = NULL;
        JsonArray *findings;
        gboolean found = FALSE;

        g_ptr_array_add (targs, "ranks");
        g_ptr_array_add (dargs, "diagnose");
        g_ptr_array_add (dargs, "--whole-run");
        g_ptr_array_add (dargs, "--format");
        g_ptr_array_add (dargs, "json");
        for (guint i = 0; i < n; i++)
          {
            g_ptr_array_add (targs, g_ptr_array_index (files, i));
            g_ptr_array_add (dargs, g_ptr_array_index (files, i));
          }
        g_ptr_array_add (targs, NULL);
        g_ptr_array_add (dargs, NULL);
        table = ws_test_cli_expect ((const char *const *) targs->pdata, 0, NULL);
        {
          g_autofree char *phrase = g_strdup_printf ("the others lose %s per step", text);

          g_assert_nonnull (strstr (table, phrase));
        }
        diag = ws_test_cli_expect ((const char *const *) dargs->pdata, 0, NULL);
        g_assert_true (json_parser_load_from_data (diag_parser, diag, -1, NULL));
        findings = json_object_get_array_member (
          json_node_get_object (json_parser_get_root (diag_parser)), "findings");
        for (guint i = 0; i < json_array_get_length (findings); i++)
          {
            JsonObject *f = json_array_get_object_element (findings, i);
            g_autofree char *phrase = g_strdup_printf ("the other ranks lose %s per step", text);

            if (g_strcmp0 (json_object_get_string_member (f, "id"), "rank-imbalance") != 0)
              continue;
            found = TRUE;
            g_assert_nonnull (strstr (json_object_get_string_member (f, "summary"), phrase));
          }
        g_assert_true (found);
      }
    }

  /* The table's waiting column reads the same figure as the CSV and JSON. */
  if (table == NULL)
    {
      g_autoptr (GPtrArray) targs = g_ptr_array_new ();

      g_ptr_array_add (targs, "ranks");
      for (guint i = 0; i < n; i++)
        g_ptr_array_add (targs, g_ptr_array_index (files, i));
      g_ptr_array_add (targs, NULL);
      table = ws_test_cli_expect ((const char *const *) targs->pdata, 0, NULL);
    }
  for (guint r = 0; r < n; r++)
    {
      JsonObject *row = json_array_get_object_element (rank_rows, r);
      g_autofree char *cell = json_object_get_null_member (row, "wait_ns")
                                ? g_strdup ("not measured")
                                : duration (json_object_get_int_member (row, "wait_ns"));
      g_autofree char *prefix = g_strdup_printf ("\n%5u  ", r);
      const char *line = strstr (table, prefix);
      g_autofree char *one = NULL;

      g_assert_nonnull (line);
      one = g_strndup (line + 1, strcspn (line + 1, "\n"));
      g_assert_nonnull (strstr (one, cell));
    }

  if (job->nccl)
    for (guint r = 0; r < n; r++)
      rank_close (&ranks[r]);
}

/* A job whose waiting nothing measures: "not measured" in the table, and
 * no per-step line says it waits (issue 40: "not measured" above "rank 0
 * waits 5.52 ms"). */
static void
test_not_measured_agrees (void)
{
  g_autofree char *dir = g_build_filename (tmp, "no-osrt", NULL);
  char *files[2] = { NULL };
  g_autofree char *out = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  for (guint r = 0; r < 2; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank/rank%u.sqlite.xz", r);

      files[r] = ws_test_unxz (xz, dir);
      ws_test_sqlite_exec (files[r], "DROP TABLE OSRT_API");
    }
  {
    const char *args[] = { "ranks", files[0], files[1], NULL };

    out = ws_test_cli_expect (args, 0, NULL);
  }
  g_assert_nonnull (strstr (out, " not measured "));
  g_assert_false (g_regex_match_simple ("rank [0-9]+ waits [0-9]", out, 0, 0));
  g_assert_nonnull (strstr (out, "the others' waiting is not measured"));
  g_free (files[0]);
  g_free (files[1]);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();
  unpacked = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      g_autofree char *path = g_strdup_printf ("/straggler-cost/%s", jobs[i].name);

      g_test_add_data_func (path, &jobs[i], test_job);
    }
  g_test_add_func ("/straggler-cost/not-measured-agrees", test_not_measured_agrees);

  status = g_test_run ();
  for (guint i = 0; i < unpacked->len; i++)
    ws_test_rmtree (g_ptr_array_index (unpacked, i));
  g_ptr_array_unref (unpacked);
  ws_test_rmtree (tmp);
  g_free (tmp);
  return status;
}
