/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "ws-ranks-loader.h"
#include "ws-run.h"
#include "ws-test-load.h"
#include "ws-test-rank-sql.h"
#include "ws-test-util.h"

/* Issue 30, item 7: the real 4-GPU H200 jobs of tests/data/captures
 * (`warpscope-cli capture --per-rank` over torchrun, one export per rank;
 * the captures' README says what each plants).  Every truth here is SQL
 * written in this file over the exports, with the arithmetic over the
 * rows SQL returns (medians, unions of intervals, the matching of
 * collectives) done in C below, written from the definitions of
 * docs/NOTES.md ("Who the others wait for, by collective") and
 * ws-rank-figures.h, not from src/:
 *
 * - collectives: a stream with NCCL kernels is a communicator, numbered by
 *   its first kernel; the n-th kernel of a communicator is the same
 *   collective on every rank while the kinds agree; each rank's clock is
 *   aligned on rank 0's by the median of (rank 0's end − its end); a
 *   rank's arrival is its kernel's start, the last arrival is the one the
 *   others wait for, and each waits max(0, min(its end, last) − its
 *   arrival);
 * - a step's last rank is the one whose last arrivals cost the others the
 *   most waiting in it (its collectives belong to the step whose range
 *   holds their launch call); its lateness in the step is its largest
 *   lead (its arrival less the median of the others') at a collective of
 *   the step it came last to; the straggler is last in at least two
 *   thirds of the steady steps, and in 3, late by the median of its
 *   steps' lateness;
 * - the range: the straggler's median time per steady step in each NVTX
 *   range inside the steps against the others' median, a range's time
 *   being the longer of its host time and its GPU projection (the GPU
 *   operations launched on its thread within it, first start to last
 *   end, as `nsys stats --report nvtx_gpu_proj_sum` projects, which its
 *   totals in truth/ confirm); of the ranges whose extra is at least half
 *   its lateness, the deepest, then the largest; else the largest;
 * - NCCL time per kind: `ncclDevKernel_<Kind>_…` durations summed; hidden
 *   under compute: the time in which an NCCL kernel and another kernel of
 *   the rank run at once;
 * - steady-state idle: 1 − (union of the rank's kernels, copies and sets
 *   within its steady steps) / (their summed wall time). */

#define N_RANKS 4

typedef struct
{
  const char *name;    /* the capture target's folder */
  const char *archive; /* under tests/data/ */
} Capture;

static const Capture captures[] = {
  { "ddp_sleep", "captures/h200x4_ddp_sleep_capture.tar.xz" },
  { "ddp_compute", "captures/h200x4_ddp_compute_capture.tar.xz" },
  { "ddp_batch", "captures/h200x4_ddp_batch_capture.tar.xz" },
  { "fsdp", "captures/h200x4_fsdp_capture.tar.xz" },
};

typedef struct
{
  gint64 s, e;
} Span;

typedef struct
{
  guint comm;
  gint64 s, e;
  char *kind;
  gint step; /* the step whose range holds the launch call, or -1 */
} Call;

typedef struct
{
  guint number;
  gint64 s, e, tid;
  gboolean steady;
} Step;

typedef struct
{
  char *name;
  gint64 s, e, tid;
} Range;

/* A GPU operation (kernel, copy, set) with its launch call. */
typedef struct
{
  gint64 s, e;         /* on the GPU */
  gint64 ls, le, ltid; /* the launch call and its thread */
} Op;

typedef struct
{
  char *db;
  GArray *calls; /* Call, by communicator, then start */
  guint n_comms;
  GArray *steps;   /* Step, by start */
  GArray *ranges;  /* Range, by start */
  GArray *nccl;    /* Span: NCCL kernels */
  GPtrArray *kind; /* char *: per NCCL kernel, its kind */
  GArray *compute; /* Span: the other kernels */
  GArray *gpu;     /* Span: every kernel, copy and set */
  GArray *ops;     /* Op, by launch start */
} Rank;

typedef struct
{
  char *dir; /* the unpacked archive */
  char *folder;
  Rank ranks[N_RANKS];
  JsonParser *parser;
  JsonObject *json; /* `ranks --format json` of the folder */
} Job;

static Job jobs[G_N_ELEMENTS (captures)];

/* ---- SQL ------------------------------------------------------------------ */

typedef void (*RowFunc) (sqlite3_stmt *stmt, gpointer data);

static void
each_row (const char *db, const char *sql, RowFunc func, gpointer data)
{
  sqlite3 *conn = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc;

  g_assert_cmpint (sqlite3_open_v2 (db, &conn, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  if (sqlite3_prepare_v2 (conn, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (conn));
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    func (stmt, data);
  g_assert_cmpint (rc, ==, SQLITE_DONE);
  sqlite3_finalize (stmt);
  sqlite3_close (conn);
}

static void
add_span (sqlite3_stmt *stmt, gpointer data)
{
  Span span = { sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1) };

  g_array_append_val ((GArray *) data, span);
}

typedef struct
{
  GArray *calls;   /* Call */
  GArray *launch;  /* gint64: each call's launch call start, or G_MININT64 */
  GArray *streams; /* guint: each call's stream */
} CallRows;

static void
add_call (sqlite3_stmt *stmt, gpointer data)
{
  CallRows *rows = data;
  Call call = { 0 };
  guint stream = (guint) sqlite3_column_int64 (stmt, 0);
  gint64 launch =
    sqlite3_column_type (stmt, 4) == SQLITE_NULL ? G_MININT64 : sqlite3_column_int64 (stmt, 4);

  call.s = sqlite3_column_int64 (stmt, 1);
  call.e = sqlite3_column_int64 (stmt, 2);
  call.kind = g_strdup ((const char *) sqlite3_column_text (stmt, 3));
  g_array_append_val (rows->calls, call);
  g_array_append_val (rows->launch, launch);
  g_array_append_val (rows->streams, stream);
}

static void
add_op (sqlite3_stmt *stmt, gpointer data)
{
  Op op = { sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1),
            sqlite3_column_int64 (stmt, 2), sqlite3_column_int64 (stmt, 3),
            sqlite3_column_int64 (stmt, 4) };

  g_array_append_val ((GArray *) data, op);
}

static void
add_step (sqlite3_stmt *stmt, gpointer data)
{
  Step step = { (guint) sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1),
                sqlite3_column_int64 (stmt, 2), sqlite3_column_int64 (stmt, 3), FALSE };

  g_array_append_val ((GArray *) data, step);
}

static void
add_range (sqlite3_stmt *stmt, gpointer data)
{
  Range range = { g_strdup ((const char *) sqlite3_column_text (stmt, 0)),
                  sqlite3_column_int64 (stmt, 1), sqlite3_column_int64 (stmt, 2),
                  sqlite3_column_int64 (stmt, 3) };

  g_array_append_val ((GArray *) data, range);
}

/* The NCCL kernels: stream, start, end, the kind the name gives
 * (`ncclDevKernel_AllReduce_Sum_f32_RING_LL(…)` → AllReduce), and the
 * start of the launch call. */
#define NCCL_SQL                                                                                   \
  "WITH k AS (SELECT k.streamId AS stream, k.start AS s, k.end AS e, k.correlationId AS corr, "    \
  "substr (i.value, 15) AS rest FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds i ON i.id = "     \
  "k.demangledName WHERE i.value LIKE 'ncclDevKernel\\_%' ESCAPE '\\') SELECT k.stream, k.s, "     \
  "k.e, CASE WHEN instr (rest, '_') > 0 AND instr (rest, '_') < instr (rest, '(') THEN substr "    \
  "(rest, 1, instr (rest, '_') - 1) ELSE substr (rest, 1, instr (rest, '(') - 1) END, a.start "    \
  "FROM k LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME a ON a.correlationId = k.corr ORDER BY k.s, k.e"

#define STEPS_SQL                                                                                  \
  "SELECT CAST (substr (coalesce (n.text, s.value), 6) AS INTEGER), n.start, n.end, n.globalTid "  \
  "FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId WHERE coalesce (n.text, s.value) "  \
  "GLOB 'step [0-9]*' AND n.end IS NOT NULL ORDER BY n.start"

#define RANGES_SQL                                                                                 \
  "SELECT coalesce (n.text, s.value), n.start, n.end, n.globalTid FROM NVTX_EVENTS n LEFT JOIN "   \
  "StringIds s ON s.id = n.textId WHERE n.eventType IN (59, 60) AND n.end IS NOT NULL AND "        \
  "coalesce (n.text, s.value) IS NOT NULL ORDER BY n.start"

static int
compare_calls (gconstpointer a, gconstpointer b)
{
  const Call *x = a, *y = b;

  if (x->comm != y->comm)
    return x->comm < y->comm ? -1 : 1;
  return (x->s > y->s) - (x->s < y->s);
}

static int
compare_spans (gconstpointer a, gconstpointer b)
{
  const Span *x = a, *y = b;

  return (x->s > y->s) - (x->s < y->s);
}

/* The warm-up (ws-test-rank-sql.h's rule): the first step, and any other
 * over twice the median wall of all but the first. */
static void
mark_steady (GArray *steps)
{
  g_autofree gint64 *walls = g_new (gint64, MAX (steps->len, 1));
  double med;

  if (steps->len < 2)
    return;
  for (guint i = 1; i < steps->len; i++)
    walls[i - 1] = g_array_index (steps, Step, i).e - g_array_index (steps, Step, i).s;
  med = ws_test_median_exact (walls, steps->len - 1);
  for (guint i = 1; i < steps->len; i++)
    {
      Step *step = &g_array_index (steps, Step, i);

      step->steady = (double) (step->e - step->s) <= 2 * med;
    }
}

static void
rank_read (Rank *rank, const char *db)
{
  CallRows rows = { g_array_new (FALSE, FALSE, sizeof (Call)),
                    g_array_new (FALSE, FALSE, sizeof (gint64)),
                    g_array_new (FALSE, FALSE, sizeof (guint)) };
  g_autoptr (GHashTable) comms = g_hash_table_new (NULL, NULL);

  rank->db = g_strdup (db);
  rank->steps = g_array_new (FALSE, FALSE, sizeof (Step));
  rank->ranges = g_array_new (FALSE, FALSE, sizeof (Range));
  rank->nccl = g_array_new (FALSE, FALSE, sizeof (Span));
  rank->kind = g_ptr_array_new_with_free_func (g_free);
  rank->compute = g_array_new (FALSE, FALSE, sizeof (Span));
  rank->gpu = g_array_new (FALSE, FALSE, sizeof (Span));
  rank->ops = g_array_new (FALSE, FALSE, sizeof (Op));

  each_row (db, STEPS_SQL, add_step, rank->steps);
  mark_steady (rank->steps);
  each_row (db, RANGES_SQL, add_range, rank->ranges);
  each_row (db, NCCL_SQL, add_call, &rows);
  each_row (db,
            "SELECT k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds i ON i.id = "
            "k.demangledName WHERE i.value NOT LIKE 'nccl%'",
            add_span, rank->compute);
  each_row (
    db,
    "SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, end FROM "
    "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end FROM CUPTI_ACTIVITY_KIND_MEMSET",
    add_span, rank->gpu);
  each_row (db,
            "SELECT o.start, o.end, a.start, a.end, a.globalTid FROM (SELECT start, end, "
            "correlationId FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, end, "
            "correlationId FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end, "
            "correlationId FROM CUPTI_ACTIVITY_KIND_MEMSET) o JOIN CUPTI_ACTIVITY_KIND_RUNTIME a "
            "ON a.correlationId = o.correlationId ORDER BY a.start",
            add_op, rank->ops);

  /* Communicators by their first kernel (rows come by start); each call
   * in the step whose range holds its launch, on any thread. */
  for (guint i = 0; i < rows.calls->len; i++)
    {
      Call *call = &g_array_index (rows.calls, Call, i);
      guint stream = g_array_index (rows.streams, guint, i);
      gint64 launch = g_array_index (rows.launch, gint64, i);
      gpointer comm;
      Span span = { call->s, call->e };

      if (!g_hash_table_lookup_extended (comms, GUINT_TO_POINTER (stream), NULL, &comm))
        {
          comm = GUINT_TO_POINTER (g_hash_table_size (comms));
          g_hash_table_insert (comms, GUINT_TO_POINTER (stream), comm);
        }
      call->comm = GPOINTER_TO_UINT (comm);
      call->step = -1;
      g_assert_cmpint (launch, !=, G_MININT64);
      for (guint s = 0; s < rank->steps->len; s++)
        {
          const Step *step = &g_array_index (rank->steps, Step, s);

          if (step->s <= launch && launch < step->e)
            call->step = (gint) step->number;
        }
      g_array_append_val (rank->nccl, span);
      g_ptr_array_add (rank->kind, g_strdup (call->kind));
    }
  rank->n_comms = g_hash_table_size (comms);
  rank->calls = rows.calls;
  g_array_sort (rank->calls, compare_calls);
  g_array_unref (rows.launch);
  g_array_unref (rows.streams);
}

static void
rank_clear (Rank *rank)
{
  for (guint i = 0; rank->calls != NULL && i < rank->calls->len; i++)
    g_free (g_array_index (rank->calls, Call, i).kind);
  for (guint i = 0; rank->ranges != NULL && i < rank->ranges->len; i++)
    g_free (g_array_index (rank->ranges, Range, i).name);
  g_clear_pointer (&rank->calls, g_array_unref);
  g_clear_pointer (&rank->steps, g_array_unref);
  g_clear_pointer (&rank->ranges, g_array_unref);
  g_clear_pointer (&rank->nccl, g_array_unref);
  g_clear_pointer (&rank->kind, g_ptr_array_unref);
  g_clear_pointer (&rank->compute, g_array_unref);
  g_clear_pointer (&rank->gpu, g_array_unref);
  g_clear_pointer (&rank->ops, g_array_unref);
  g_clear_pointer (&rank->db, g_free);
}

/* ---- intervals ------------------------------------------------------------ */

/* The union of @spans, sorted and disjoint. */
static GArray *
span_union (GArray *spans)
{
  g_autoptr (GArray) sorted = g_array_copy (spans);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Span));

  g_array_sort (sorted, compare_spans);
  for (guint i = 0; i < sorted->len; i++)
    {
      Span span = g_array_index (sorted, Span, i);
      Span *last = out->len > 0 ? &g_array_index (out, Span, out->len - 1) : NULL;

      if (last != NULL && span.s <= last->e)
        last->e = MAX (last->e, span.e);
      else
        g_array_append_val (out, span);
    }
  return out;
}

/* ns of [@a, @b) covered by the disjoint sorted @spans. */
static gint64
covered (GArray *spans, gint64 a, gint64 b)
{
  gint64 total = 0;

  for (guint i = 0; i < spans->len; i++)
    {
      const Span *span = &g_array_index (spans, Span, i);

      if (span->e > a && span->s < b)
        total += MIN (span->e, b) - MAX (span->s, a);
    }
  return total;
}

/* ns covered by the union of @spans. */
static gint64
total (GArray *spans)
{
  g_autoptr (GArray) u = span_union (spans);

  return covered (u, G_MININT64 / 2, G_MAXINT64 / 2);
}

static gint64
total_of_both (GArray *a, GArray *b)
{
  g_autoptr (GArray) both = g_array_copy (a);

  g_array_append_vals (both, b->data, b->len);
  return total (both);
}

/* ---- loading -------------------------------------------------------------- */

static Job *
job_get (guint c)
{
  Job *job = &jobs[c];
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;

  if (job->folder != NULL)
    return job;
  job->dir = ws_test_unpack (captures[c].archive);
  job->folder = g_build_filename (job->dir, captures[c].name, NULL);
  for (guint r = 0; r < N_RANKS; r++)
    {
      g_autofree char *name = g_strdup_printf ("rank%u.sqlite", r);
      g_autofree char *db = g_build_filename (job->folder, "nsys", name, NULL);

      rank_read (&job->ranks[r], db);
    }
  {
    const char *args[] = { "ranks", "--format", "json", job->folder, NULL };

    out = ws_test_cli_expect (args, 0, NULL);
  }
  job->parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (job->parser, out, -1, &error));
  g_assert_no_error (error);
  job->json = json_node_get_object (json_parser_get_root (job->parser));
  return job;
}

static JsonObject *
json_rank (Job *job, guint r)
{
  JsonArray *ranks = json_object_get_array_member (job->json, "ranks");
  JsonObject *rank = json_array_get_object_element (ranks, r);

  g_assert_cmpint (json_object_get_int_member (rank, "rank"), ==, r);
  return rank;
}

/* ---- the straggler, by SQL's rows --------------------------------------- */

/* Rank @r's loss in step @number, as `ranks --format json` gives it. */
static gint64
step_loss (Job *job, guint r, guint number)
{
  JsonArray *per_step = json_object_get_array_member (json_rank (job, r), "per_step");

  for (guint i = 0; i < json_array_get_length (per_step); i++)
    {
      JsonObject *step = json_array_get_object_element (per_step, i);

      if ((guint) json_object_get_int_member (step, "step") == number)
        return json_object_get_int_member (step, "wait_ns");
    }
  return 0;
}

typedef struct
{
  guint number;
  gboolean steady;
  gint64 caused[N_RANKS]; /* what the others waited at the collectives each arrived at last */
  gint64 lead[N_RANKS];   /* each one's largest lead there over the others' median arrival */
  gboolean has[N_RANKS];
  gint last;
} TruthStep;

typedef struct
{
  guint n_matched;
  gint64 align[N_RANKS];
  gint64 wait[N_RANKS];
  guint last_count[N_RANKS]; /* collectives at which each arrived last */
  GArray *steps;             /* TruthStep, by number */
  gint straggler;            /* or -1 */
  guint n_last, n_steps;
  guint best_count; /* steady steps the rank most often last was last in */
  gint best;
  gint64 late, lost;
  char *range;
  gint64 range_extra;
} Truth;

static TruthStep *
truth_step (Truth *t, gint number)
{
  for (guint i = 0; number >= 0 && i < t->steps->len; i++)
    if (g_array_index (t->steps, TruthStep, i).number == (guint) number)
      return &g_array_index (t->steps, TruthStep, i);
  return NULL;
}

static const Step *
rank_step (const Rank *rank, guint number)
{
  for (guint i = 0; i < rank->steps->len; i++)
    if (g_array_index (rank->steps, Step, i).number == number)
      return &g_array_index (rank->steps, Step, i);
  return NULL;
}

static int
compare_truth_steps (gconstpointer a, gconstpointer b)
{
  const TruthStep *x = a, *y = b;

  return (x->number > y->number) - (x->number < y->number);
}

/* The GPU projection of @r: the operations launched on its thread within
 * it, from the first one's start to the last one's end; 0 without any. */
static gint64
projection (const Rank *rank, const Range *r)
{
  gint64 first = G_MAXINT64, last = G_MININT64;
  guint lo = 0, hi = rank->ops->len;

  /* Ops are sorted by launch start: the first launched at r->s or later. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (rank->ops, Op, mid).ls < r->s)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i < rank->ops->len && g_array_index (rank->ops, Op, i).ls < r->e; i++)
    {
      const Op *op = &g_array_index (rank->ops, Op, i);

      if (op->ltid != r->tid || op->le > r->e)
        continue;
      first = MIN (first, op->s);
      last = MAX (last, op->e);
    }
  return last > first ? last - first : 0;
}

/* Whether @r is the range of @step itself. */
static gboolean
is_step (const Range *r, const Step *step)
{
  return r->s == step->s && r->e == step->e && r->tid == step->tid &&
         g_str_has_prefix (r->name, "step ");
}

/* A rank's median time per steady step in each range inside its steps, on
 * the step's thread, with its depth under the step. */
static GHashTable *
range_medians (const Rank *rank, GHashTable *depths)
{
  GHashTable *per_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) times =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  guint n_steady = 0;
  GHashTableIter iter;
  gpointer key, value;

  for (guint s = 0; s < rank->steps->len; s++)
    {
      const Step *step = &g_array_index (rank->steps, Step, s);

      if (!step->steady)
        continue;
      for (guint i = 0; i < rank->ranges->len; i++)
        {
          const Range *r = &g_array_index (rank->ranges, Range, i);
          GArray *values;
          guint depth = 1;

          if (r->tid != step->tid || r->s < step->s || r->e > step->e || is_step (r, step))
            continue;
          /* Its depth: the ranges of the step that hold it, and one. */
          for (guint j = 0; j < rank->ranges->len; j++)
            {
              const Range *o = &g_array_index (rank->ranges, Range, j);

              if (j != i && o->tid == r->tid && o->s <= r->s && o->e >= r->e && o->s >= step->s &&
                  o->e <= step->e && !is_step (o, step))
                depth++;
            }
          values = g_hash_table_lookup (times, r->name);
          if (values == NULL)
            {
              values = g_array_new (FALSE, TRUE, sizeof (gint64));
              g_hash_table_insert (times, g_strdup (r->name), values);
            }
          if (values->len < n_steady + 1)
            g_array_set_size (values, n_steady + 1);
          g_array_index (values, gint64, n_steady) += MAX (r->e - r->s, projection (rank, r));
          if (depths != NULL)
            {
              guint known = GPOINTER_TO_UINT (g_hash_table_lookup (depths, r->name));

              if (known == 0 || depth < known)
                g_hash_table_insert (depths, g_strdup (r->name), GUINT_TO_POINTER (depth));
            }
        }
      n_steady++;
    }
  g_hash_table_iter_init (&iter, times);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *values = value;
      gint64 *median = g_new (gint64, 1);

      g_array_set_size (values, n_steady);
      *median = (gint64) llround (ws_test_median_exact ((const gint64 *) values->data, n_steady));
      g_hash_table_insert (per_name, g_strdup (key), median);
    }
  return per_name;
}

static void
find_range (Job *job, Truth *t)
{
  g_autoptr (GHashTable) depths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTable *medians[N_RANKS];
  GHashTableIter iter;
  gpointer key, value;
  guint best_depth = 0;
  gboolean best_enough = FALSE;

  for (guint r = 0; r < N_RANKS; r++)
    medians[r] = range_medians (&job->ranks[r], (gint) r == t->straggler ? depths : NULL);
  g_hash_table_iter_init (&iter, medians[t->straggler]);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gint64 others[N_RANKS - 1];
      guint k = 0;
      gint64 extra;
      guint depth = GPOINTER_TO_UINT (g_hash_table_lookup (depths, key));
      gboolean enough, better;

      for (guint r = 0; r < N_RANKS; r++)
        if ((gint) r != t->straggler)
          {
            gint64 *theirs = g_hash_table_lookup (medians[r], key);

            others[k++] = theirs != NULL ? *theirs : 0;
          }
      extra = *(gint64 *) value - ws_test_median (others, k);
      g_test_message ("%s: rank %d's “%s” (depth %u): %+.3f ms per step against the others",
                      captures[job - jobs].name, t->straggler, (const char *) key, depth,
                      extra / 1e6);
      if (extra <= 0)
        continue;
      enough = extra * 2 >= t->late;
      if (t->range == NULL)
        better = TRUE;
      else if (enough != best_enough)
        better = enough;
      else if (enough)
        better = depth > best_depth || (depth == best_depth && extra > t->range_extra);
      else
        better = extra > t->range_extra;
      if (better)
        {
          g_free (t->range);
          t->range = g_strdup (key);
          t->range_extra = extra;
          best_depth = depth;
          best_enough = enough;
        }
    }
  for (guint r = 0; r < N_RANKS; r++)
    g_hash_table_unref (medians[r]);
}

static void
truth_compute (Job *job, Truth *t)
{
  guint n_comms = G_MAXUINT;
  g_autoptr (GArray) pairs = g_array_new (FALSE, FALSE, sizeof (guint) * 2);
  guint first[N_RANKS][8];
  g_autoptr (GHashTable) numbers = g_hash_table_new (NULL, NULL);
  guint counts[N_RANKS] = { 0 };
  g_autoptr (GArray) lates = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) losts = g_array_new (FALSE, FALSE, sizeof (gint64));

  memset (t, 0, sizeof *t);
  t->straggler = -1;
  t->steps = g_array_new (FALSE, FALSE, sizeof (TruthStep));

  /* Each communicator's calls on each rank. */
  for (guint r = 0; r < N_RANKS; r++)
    {
      const Rank *rank = &job->ranks[r];

      n_comms = MIN (n_comms, rank->n_comms);
      g_assert_cmpuint (rank->n_comms, <, 8);
      for (guint c = 0; c <= rank->n_comms; c++)
        {
          first[r][c] = rank->calls->len;
          for (guint i = 0; i < rank->calls->len; i++)
            if (g_array_index (rank->calls, Call, i).comm >= c)
              {
                first[r][c] = i;
                break;
              }
        }
    }
  for (guint c = 0; c < n_comms; c++)
    {
      guint most = G_MAXUINT;

      for (guint r = 0; r < N_RANKS; r++)
        most = MIN (most, first[r][c + 1] - first[r][c]);
      for (guint k = 0; k < most; k++)
        {
          const char *kind = g_array_index (job->ranks[0].calls, Call, first[0][c] + k).kind;
          gboolean same = TRUE;
          guint pair[2] = { c, k };

          for (guint r = 1; r < N_RANKS; r++)
            same = same && g_str_equal (
                             g_array_index (job->ranks[r].calls, Call, first[r][c] + k).kind, kind);
          if (!same)
            break;
          g_array_append_val (pairs, pair);
        }
    }
  t->n_matched = pairs->len;
  g_assert_cmpuint (t->n_matched, >, 0);

#define CALL(r, p)                                                                                 \
  (&g_array_index (job->ranks[r].calls, Call,                                                      \
                   first[r][g_array_index (pairs, guint, 2 * (p))] +                               \
                     g_array_index (pairs, guint, 2 * (p) + 1)))

  for (guint r = 1; r < N_RANKS; r++)
    {
      g_autofree gint64 *offsets = g_new (gint64, pairs->len);

      for (guint p = 0; p < pairs->len; p++)
        offsets[p] = CALL (0, p)->e - CALL (r, p)->e;
      t->align[r] = ws_test_median (offsets, pairs->len);
    }

  /* The steps: every number any rank ran; steady where at least two ran
   * it and none has it as warm-up. */
  for (guint r = 0; r < N_RANKS; r++)
    for (guint s = 0; s < job->ranks[r].steps->len; s++)
      {
        const Step *step = &g_array_index (job->ranks[r].steps, Step, s);

        if (g_hash_table_add (numbers, GUINT_TO_POINTER (step->number + 1)))
          {
            TruthStep ts = { 0 };

            ts.number = step->number;
            ts.last = -1;
            g_array_append_val (t->steps, ts);
          }
      }
  g_array_sort (t->steps, compare_truth_steps);
  for (guint i = 0; i < t->steps->len; i++)
    {
      TruthStep *ts = &g_array_index (t->steps, TruthStep, i);
      guint ran = 0;
      gboolean warmup = FALSE;

      for (guint r = 0; r < N_RANKS; r++)
        {
          const Step *step = rank_step (&job->ranks[r], ts->number);

          ts->has[r] = step != NULL;
          ran += step != NULL;
          warmup = warmup || (step != NULL && !step->steady);
        }
      ts->steady = ran >= 2 && !warmup;
    }

  for (guint p = 0; p < pairs->len; p++)
    {
      gint64 arrival[N_RANKS], caused = 0;
      gint last = 0;
      TruthStep *ts;

      for (guint r = 0; r < N_RANKS; r++)
        {
          arrival[r] = CALL (r, p)->s + t->align[r];
          if (arrival[r] > arrival[last])
            last = (gint) r;
        }
      t->last_count[last]++;
      for (guint r = 0; r < N_RANKS; r++)
        {
          gint64 wait = MAX (0, MIN (CALL (r, p)->e + t->align[r], arrival[last]) - arrival[r]);

          t->wait[r] += wait;
          caused += wait;
        }
      ts = truth_step (t, CALL (last, p)->step);
      if (ts != NULL)
        {
          gint64 others[N_RANKS - 1];
          guint k = 0;

          for (guint r = 0; r < N_RANKS; r++)
            if ((gint) r != last)
              others[k++] = arrival[r];
          ts->caused[last] += caused;
          ts->lead[last] = MAX (ts->lead[last], arrival[last] - ws_test_median (others, k));
        }
    }
#undef CALL

  for (guint i = 0; i < t->steps->len; i++)
    {
      TruthStep *ts = &g_array_index (t->steps, TruthStep, i);

      for (guint r = 0; r < N_RANKS; r++)
        if (ts->has[r] && ts->caused[r] > 0 &&
            (ts->last < 0 || ts->caused[r] > ts->caused[ts->last]))
          ts->last = (gint) r;
      if (ts->steady && ts->last >= 0)
        {
          t->n_steps++;
          counts[ts->last]++;
        }
    }
  t->best = 0;
  for (guint r = 1; r < N_RANKS; r++)
    if (counts[r] > counts[t->best])
      t->best = (gint) r;
  t->best_count = counts[t->best];
  if (t->n_steps < 3 || counts[t->best] < 3 || counts[t->best] < 2.0 / 3.0 * t->n_steps)
    return;
  for (guint i = 0; i < t->steps->len; i++)
    {
      const TruthStep *ts = &g_array_index (t->steps, TruthStep, i);
      gint64 late, lost;

      if (!ts->steady || !ts->has[t->best])
        continue;
      late = ts->lead[t->best];
      /* What the others lose (docs/NOTES.md, "What a straggler costs"):
       * each one's loss in the step, up to the straggler's lateness there.
       * The losses themselves are checked against SQL by
       * test-straggler-cost; here, the rule over them. */
      lost = 0;
      for (guint r = 0; r < N_RANKS; r++)
        if ((gint) r != t->best)
          lost += MIN (step_loss (job, r, ts->number), MAX (late, 0));
      g_array_append_val (lates, late);
      g_array_append_val (losts, lost);
    }
  t->late = ws_test_median ((const gint64 *) lates->data, lates->len);
  if (t->late <= 0)
    return;
  t->straggler = t->best;
  t->n_last = counts[t->best];
  t->lost = ws_test_median ((const gint64 *) losts->data, losts->len);
  find_range (job, t);
}

static void
truth_clear (Truth *t)
{
  g_clear_pointer (&t->steps, g_array_unref);
  g_clear_pointer (&t->range, g_free);
}

/* The GPU projection above, summed over every instance of the ranges the
 * steps hold (data, forward, backward, optimizer, extra work), is what
 * `nsys stats --report nvtx_gpu_proj_sum` made on the capture machine
 * (truth/rankN_nvtx_gpu_proj_sum.csv, "Total Proj Time (ns)"). */
static void
assert_projection_is_nsys (Job *job)
{
  const char *const names[] = { "data", "forward", "backward", "optimizer", "extra work" };

  for (guint r = 0; r < N_RANKS; r++)
    {
      const Rank *rank = &job->ranks[r];
      g_autofree char *csv_name = g_strdup_printf ("rank%u_nvtx_gpu_proj_sum.csv", r);
      g_autofree char *csv_path = g_build_filename (job->folder, "truth", csv_name, NULL);
      g_autofree char *csv = ws_test_read (csv_path);
      g_auto (GStrv) lines = g_strsplit (csv, "\n", -1);
      guint checked = 0;

      for (guint n = 0; n < G_N_ELEMENTS (names); n++)
        {
          g_autofree char *prefix = g_strdup_printf (":%s,", names[n]);
          gint64 ours = 0, theirs = -1;

          for (guint i = 0; lines[i] != NULL; i++)
            if (g_str_has_prefix (lines[i], prefix))
              {
                g_auto (GStrv) cells = g_strsplit (lines[i], ",", -1);

                theirs = g_ascii_strtoll (cells[2], NULL, 10);
              }
          for (guint i = 0; i < rank->ranges->len; i++)
            {
              const Range *range = &g_array_index (rank->ranges, Range, i);

              if (g_str_equal (range->name, names[n]))
                ours += projection (rank, range);
            }
          if (theirs < 0)
            {
              /* nsys lists only ranges that launched something. */
              g_assert_cmpint (ours, ==, 0);
              continue;
            }
          g_assert_cmpint (ours, ==, theirs);
          checked++;
        }
      g_assert_cmpuint (checked, >=, 2);
    }
}

/* The straggler `ranks` names, its lateness, the others' loss and its
 * range, each rank's alignment and waiting: SQL's, for each capture. */
static void
test_straggler (gconstpointer data)
{
  guint c = GPOINTER_TO_UINT (data);
  Job *job = job_get (c);
  Truth t;
  JsonObject *straggler;

  assert_projection_is_nsys (job);
  truth_compute (job, &t);
  g_test_message ("%s: %u collectives matched; last arrivals per rank: %u %u %u %u; per steady "
                  "step, rank %d last in %u of %u",
                  captures[c].name, t.n_matched, t.last_count[0], t.last_count[1], t.last_count[2],
                  t.last_count[3], t.best, t.best_count, t.n_steps);
  g_assert_cmpstr (json_object_get_string_member (job->json, "method"), ==, "nccl");
  g_assert_cmpint (json_object_get_int_member (job->json, "collectives_matched"), ==, t.n_matched);
  for (guint r = 0; r < N_RANKS; r++)
    {
      JsonObject *rank = json_rank (job, r);

      g_assert_cmpint (json_object_get_int_member (rank, "collective_offset_ns"), ==, t.align[r]);
      JsonArray *per_step = json_object_get_array_member (rank, "per_step");
      gint64 sum = 0;

      /* The table's waiting is the rank's losses summed (issue 40; the
       * arrival waits SQL sums, t.wait, overlap its compute). */
      for (guint i = 0; i < json_array_get_length (per_step); i++)
        sum += json_object_get_int_member (json_array_get_object_element (per_step, i), "wait_ns");
      g_assert_cmpint (json_object_get_int_member (rank, "wait_ns"), ==, sum);
    }

  straggler = json_object_get_null_member (job->json, "straggler")
                ? NULL
                : json_object_get_object_member (job->json, "straggler");
  if (t.straggler < 0)
    {
      g_test_message ("%s: no straggler by SQL", captures[c].name);
      g_assert_null (straggler);
    }
  else
    {
      g_test_message ("%s: SQL's straggler: rank %d, +%" G_GINT64_FORMAT " ns per step, in %s "
                      "(+%" G_GINT64_FORMAT " ns)",
                      captures[c].name, t.straggler, t.late, t.range, t.range_extra);
      g_assert_nonnull (straggler);
      g_assert_cmpint (json_object_get_int_member (straggler, "rank"), ==, t.straggler);
      g_assert_cmpint (json_object_get_int_member (straggler, "steps_last"), ==, t.n_last);
      g_assert_cmpint (json_object_get_int_member (straggler, "steady_steps"), ==, t.n_steps);
      g_assert_cmpint (json_object_get_int_member (straggler, "late_ns"), ==, t.late);
      g_assert_cmpint (json_object_get_int_member (straggler, "others_wait_ns"), ==, t.lost);
      g_assert_cmpint (t.lost, <=, (N_RANKS - 1) * t.late);
      g_assert_cmpstr (json_object_get_string_member (straggler, "range"), ==, t.range);
      g_assert_cmpint (json_object_get_int_member (straggler, "range_extra_ns"), ==, t.range_extra);
    }

  /* What each capture planted, as its README says and SQL confirms. */
  if (g_str_equal (captures[c].name, "ddp_sleep"))
    {
      /* Rank 3 sleeps in `data`: last at most collectives and steps. */
      for (guint r = 0; r < 3; r++)
        g_assert_cmpuint (t.last_count[3], >, t.last_count[r]);
      g_assert_cmpint (t.straggler, ==, 3);
      g_assert_cmpstr (t.range, ==, "data");
      g_assert_cmpstr (json_object_get_string_member (straggler, "range"), ==, "data");
    }
  else if (g_str_equal (captures[c].name, "ddp_compute"))
    g_assert_cmpint (t.straggler, ==, 3);
  else if (g_str_equal (captures[c].name, "ddp_batch"))
    {
      /* The planted straggler did not take: SQL's rank most often last
       * is rank 1, at fewer than two thirds of the steady steps, which is
       * no straggler by the documented rule. */
      guint most = 0;

      for (guint r = 1; r < N_RANKS; r++)
        if (t.last_count[r] > t.last_count[most])
          most = r;
      g_assert_cmpuint (most, ==, 1);
      g_assert_cmpfloat (t.best_count, <, 2.0 / 3.0 * t.n_steps);
      g_assert_cmpint (t.straggler, ==, -1);
    }
  truth_clear (&t);
}

/* ---- NCCL time, overlap, idle -------------------------------------------- */

/* Each rank's NCCL time per collective kind, and the part of it under
 * compute kernels, against `ranks --format json`'s collectives. */
static void
test_nccl_time_and_overlap (gconstpointer data)
{
  guint c = GPOINTER_TO_UINT (data);
  Job *job = job_get (c);

  for (guint r = 0; r < N_RANKS; r++)
    {
      Rank *rank = &job->ranks[r];
      JsonObject *jr = json_rank (job, r);
      JsonArray *collectives = json_object_get_array_member (jr, "collectives");
      g_autoptr (GArray) compute = span_union (rank->compute);
      g_autoptr (GArray) nccl = span_union (rank->nccl);
      g_autoptr (GHashTable) totals = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
      gint64 sum = 0, hidden_sum = 0, nccl_sum = 0;
      g_autofree char *sql_total = NULL;

      /* NCCL kernels never run two at once on these GPUs: the time an
       * NCCL kernel and a compute kernel run together is the sum over the
       * NCCL kernels of their time under compute. */
      for (guint i = 0; i < rank->nccl->len; i++)
        nccl_sum += g_array_index (rank->nccl, Span, i).e - g_array_index (rank->nccl, Span, i).s;
      g_assert_cmpint (covered (nccl, G_MININT64 / 2, G_MAXINT64 / 2), ==, nccl_sum);

      for (guint i = 0; i < rank->nccl->len; i++)
        {
          const Span *span = &g_array_index (rank->nccl, Span, i);
          const char *kind = g_ptr_array_index (rank->kind, i);
          gint64 *t = g_hash_table_lookup (totals, kind);

          if (t == NULL)
            {
              t = g_new0 (gint64, 3);
              g_hash_table_insert (totals, (gpointer) kind, t);
            }
          t[0]++;
          t[1] += span->e - span->s;
          t[2] += covered (compute, span->s, span->e);
        }
      g_assert_cmpuint (json_array_get_length (collectives), ==, g_hash_table_size (totals));
      for (guint k = 0; k < json_array_get_length (collectives); k++)
        {
          JsonObject *jk = json_array_get_object_element (collectives, k);
          const char *kind = json_object_get_string_member (jk, "kind");
          const gint64 *t = g_hash_table_lookup (totals, kind);
          g_autofree char *sql = g_strdup_printf (
            "SELECT count (*) || ' ' || sum (k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
            "JOIN StringIds i ON i.id = k.demangledName WHERE i.value LIKE "
            "'ncclDevKernel\\_%s\\_%%' "
            "ESCAPE '\\' OR i.value LIKE 'ncclDevKernel\\_%s(%%' ESCAPE '\\'",
            kind, kind);
          g_autofree char *by_sql = ws_test_sqlite_text (rank->db, sql);
          g_autofree char *ours = NULL;

          g_assert_nonnull (t);
          ours = g_strdup_printf ("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                                  json_object_get_int_member (jk, "count"),
                                  json_object_get_int_member (jk, "total_ns"));
          g_test_message ("%s rank %u %s: %s ns, %" G_GINT64_FORMAT " ns under compute (SQL: %s, "
                          "%" G_GINT64_FORMAT ")",
                          captures[c].name, r, kind, ours,
                          json_object_get_int_member (jk, "hidden_ns"), by_sql, t[2]);
          g_assert_cmpstr (ours, ==, by_sql);
          g_assert_cmpint (json_object_get_int_member (jk, "count"), ==, t[0]);
          g_assert_cmpint (json_object_get_int_member (jk, "total_ns"), ==, t[1]);
          g_assert_cmpint (json_object_get_int_member (jk, "hidden_ns"), ==, t[2]);
          sum += t[1];
          hidden_sum += t[2];
        }
      sql_total = ws_test_sqlite_text (
        rank->db, "SELECT sum (k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds i "
                  "ON i.id = k.demangledName WHERE i.value LIKE 'nccl%'");
      g_assert_cmpint (json_object_get_int_member (jr, "comm_ns"), ==,
                       g_ascii_strtoll (sql_total, NULL, 10));
      g_assert_cmpint (json_object_get_int_member (jr, "comm_ns"), ==, sum);
      g_assert_cmpint (json_object_get_int_member (jr, "comm_hidden_ns"), ==, hidden_sum);
      /* |NCCL ∩ compute| = |NCCL| + |compute| − |NCCL ∪ compute|. */
      g_assert_cmpint (hidden_sum, ==,
                       total (rank->nccl) + total (rank->compute) -
                         total_of_both (rank->nccl, rank->compute));
    }
}

/* Each rank's GPU idle share over its steady steps. */
static void
test_steady_idle (gconstpointer data)
{
  guint c = GPOINTER_TO_UINT (data);
  Job *job = job_get (c);

  for (guint r = 0; r < N_RANKS; r++)
    {
      Rank *rank = &job->ranks[r];
      JsonObject *jr = json_rank (job, r);
      g_autoptr (GArray) gpu = span_union (rank->gpu);
      gint64 busy = 0, span = 0;
      double share;

      for (guint s = 0; s < rank->steps->len; s++)
        {
          const Step *step = &g_array_index (rank->steps, Step, s);

          if (!step->steady)
            continue;
          busy += covered (gpu, step->s, step->e);
          span += step->e - step->s;
        }
      g_assert_cmpint (span, >, 0);
      share = 1.0 - (double) busy / (double) span;
      g_test_message ("%s rank %u: idle %.2f%% of %" G_GINT64_FORMAT " ns of steady steps "
                      "(ranks: %.2f%%)",
                      captures[c].name, r, share * 100, span,
                      json_object_get_double_member (jr, "steady_idle_share") * 100);
      g_assert_cmpint (json_object_get_int_member (jr, "steady_span_ns"), ==, span);
      g_assert_cmpint (json_object_get_int_member (jr, "steady_idle_ns"), ==, span - busy);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (jr, "steady_idle_share"),
                                      share, 1e-12);
    }
}

/* ---- two targets ---------------------------------------------------------- */

/* A capture folder of two targets (the cuDNN CNN, fp32 and bf16
 * channels-last) is two launches, never one job; each opens as a run of
 * its own, on the GPU SQL finds its kernels and copies on. */
static void
test_two_targets_two_runs (void)
{
  g_autofree char *dir = ws_test_unpack ("captures/h200_cnn_capture.tar.xz");
  const char *paths[] = { dir, NULL };
  g_autoptr (GPtrArray) launches = ws_ranks_loader_launches (paths);
  g_autofree char *err = NULL;
  const char *args[] = { "ranks", dir, NULL };
  g_autofree char *out = ws_test_cli_expect (args, 2, &err);

  g_assert_cmpuint (launches->len, ==, 2);
  g_assert_false (ws_ranks_loader_is_job (paths, TRUE));
  g_assert_nonnull (strstr (err, "2 separate runs (cnn_bf16cl, cnn_fp32)"));
  for (guint i = 0; i < launches->len; i++)
    {
      WsLaunch *launch = g_ptr_array_index (launches, i);
      const char *one[] = { launch->path, NULL };
      g_autoptr (WsRun) run = NULL;
      g_autoptr (GArray) devices = NULL;
      g_autofree char *db = NULL;
      g_autofree char *sql_devices = NULL;
      g_autoptr (GString) ours = g_string_new (NULL);

      g_assert_cmpuint (launch->exports->len, ==, 1);
      db = g_strdup (g_ptr_array_index (launch->exports, 0));
      g_assert_true (g_str_has_suffix (db, ".sqlite"));
      run = ws_test_load_paths (one);
      g_assert_nonnull (run);
      g_assert_null (run->ranks);
      devices = ws_run_devices_used (run, WS_RUN_ANY_PID);
      for (guint d = 0; d < devices->len; d++)
        g_string_append_printf (ours, "%s%d", d > 0 ? "," : "", g_array_index (devices, gint32, d));
      sql_devices = ws_test_sqlite_text (
        db, "SELECT group_concat (d) FROM (SELECT DISTINCT deviceId AS d FROM (SELECT deviceId "
            "FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT deviceId FROM "
            "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT deviceId FROM "
            "CUPTI_ACTIVITY_KIND_MEMSET) ORDER BY d)");
      g_test_message ("%s: %s, GPUs %s (SQL %s)", launch->name, db, ours->str, sql_devices);
      g_assert_cmpstr (ours->str, ==, sql_devices);
    }
  ws_test_rmtree (dir);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  /* Literal paths: tests/promises.tsv names them. */
  g_test_add_data_func ("/nccl-jobs/ddp_sleep/straggler", GUINT_TO_POINTER (0), test_straggler);
  g_test_add_data_func ("/nccl-jobs/ddp_sleep/nccl-time-and-overlap", GUINT_TO_POINTER (0),
                        test_nccl_time_and_overlap);
  g_test_add_data_func ("/nccl-jobs/ddp_sleep/steady-idle", GUINT_TO_POINTER (0), test_steady_idle);
  g_test_add_data_func ("/nccl-jobs/ddp_compute/straggler", GUINT_TO_POINTER (1), test_straggler);
  g_test_add_data_func ("/nccl-jobs/ddp_compute/nccl-time-and-overlap", GUINT_TO_POINTER (1),
                        test_nccl_time_and_overlap);
  g_test_add_data_func ("/nccl-jobs/ddp_compute/steady-idle", GUINT_TO_POINTER (1),
                        test_steady_idle);
  g_test_add_data_func ("/nccl-jobs/ddp_batch/straggler", GUINT_TO_POINTER (2), test_straggler);
  g_test_add_data_func ("/nccl-jobs/ddp_batch/nccl-time-and-overlap", GUINT_TO_POINTER (2),
                        test_nccl_time_and_overlap);
  g_test_add_data_func ("/nccl-jobs/ddp_batch/steady-idle", GUINT_TO_POINTER (2), test_steady_idle);
  g_test_add_data_func ("/nccl-jobs/fsdp/straggler", GUINT_TO_POINTER (3), test_straggler);
  g_test_add_data_func ("/nccl-jobs/fsdp/nccl-time-and-overlap", GUINT_TO_POINTER (3),
                        test_nccl_time_and_overlap);
  g_test_add_data_func ("/nccl-jobs/fsdp/steady-idle", GUINT_TO_POINTER (3), test_steady_idle);
  g_test_add_func ("/nccl-jobs/capture-targets/two-runs", test_two_targets_two_runs);

  status = g_test_run ();
  for (guint c = 0; c < G_N_ELEMENTS (captures); c++)
    {
      for (guint r = 0; r < N_RANKS; r++)
        rank_clear (&jobs[c].ranks[r]);
      g_clear_object (&jobs[c].parser);
      if (jobs[c].dir != NULL)
        ws_test_rmtree (jobs[c].dir);
      g_free (jobs[c].dir);
      g_free (jobs[c].folder);
    }
  return status;
}
