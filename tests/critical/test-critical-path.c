/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <sqlite3.h>
#include <string.h>

#include "ws-critical-path.h"
#include "ws-format.h"
#include "ws-rank-set.h"
#include "ws-ranks-loader.h"
#include "ws-test-load.h"
#include "ws-test-util.h"

/* Issue 43: the critical path of a step and what-if (docs/critical-path.md),
 * on real before/after pairs of tests/data/critical against SQL.
 *
 * A step's time is its NVTX range `step N`; a job's, the mean over its
 * ranks; the steady steps are those the warm-up rule keeps (not the first,
 * not over twice the median of the others).  Replayed with its own weights
 * the graph gives back every measured step, and the path of a step tiles
 * its range; replayed with a change, the "before" capture must predict the
 * "after" capture's median steady step within the after's own spread. */

static char *tmp;

/* The step ranges' durations of one export by SQL, by step number. */
static GHashTable *
sql_steps (const char *db_path)
{
  GHashTable *steps = g_hash_table_new (NULL, NULL);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  const char *sql = "SELECT coalesce(n.text, s.value), n.end - n.start FROM NVTX_EVENTS n "
                    "LEFT JOIN StringIds s ON s.id = n.textId WHERE n.eventType = 59 "
                    "AND coalesce(n.text, s.value) LIKE 'step %'";

  g_assert_cmpint (sqlite3_open_v2 (db_path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      guint number =
        (guint) g_ascii_strtoull ((const char *) sqlite3_column_text (stmt, 0) + 5, NULL, 10);

      g_hash_table_insert (steps, GUINT_TO_POINTER (number + 1),
                           GINT_TO_POINTER ((gint) sqlite3_column_int64 (stmt, 1)));
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return steps;
}

static int
compare_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static double
median (GArray *values)
{
  guint n = values->len;

  g_array_sort (values, compare_i64);
  return n % 2 ? (double) g_array_index (values, gint64, n / 2)
               : ((double) g_array_index (values, gint64, n / 2 - 1) +
                  (double) g_array_index (values, gint64, n / 2)) /
                   2.0;
}

typedef struct
{
  guint n;         /* steps */
  gint64 time[64]; /* per step number: the mean of the ranks' ranges */
  gint64 longest[64];
  gboolean steady[64];
} Truth;

/* The steps of a capture by SQL (one export, or a rank per export), and
 * which are steady by the warm-up rule. */
static void
sql_truth (const char *const *dbs, Truth *truth)
{
  guint n_ranks = g_strv_length ((char **) dbs);
  GHashTable *per_rank[4];

  memset (truth, 0, sizeof *truth);
  for (guint r = 0; r < n_ranks; r++)
    per_rank[r] = sql_steps (dbs[r]);
  truth->n = g_hash_table_size (per_rank[0]);
  g_assert_cmpuint (truth->n, <=, 64);
  for (guint s = 0; s < truth->n; s++)
    {
      double sum = 0;

      for (guint r = 0; r < n_ranks; r++)
        {
          gint64 t = GPOINTER_TO_INT (g_hash_table_lookup (per_rank[r], GUINT_TO_POINTER (s + 1)));

          g_assert_cmpint (t, >, 0);
          sum += (double) t;
          truth->longest[s] = MAX (truth->longest[s], t);
        }
      truth->time[s] = (gint64) (sum / n_ranks + 0.5);
    }
  /* Warm-up: the first step, and a step over twice the median of the
   * rank's others (on any rank). */
  for (guint s = 1; s < truth->n; s++)
    truth->steady[s] = TRUE;
  for (guint r = 0; r < n_ranks; r++)
    for (guint s = 1; s < truth->n; s++)
      {
        g_autoptr (GArray) others = g_array_new (FALSE, FALSE, sizeof (gint64));

        for (guint o = 1; o < truth->n; o++)
          if (o != s)
            {
              gint64 t =
                GPOINTER_TO_INT (g_hash_table_lookup (per_rank[r], GUINT_TO_POINTER (o + 1)));

              g_array_append_val (others, t);
            }
        if (GPOINTER_TO_INT (g_hash_table_lookup (per_rank[r], GUINT_TO_POINTER (s + 1))) >
            2.0 * median (others))
          truth->steady[s] = FALSE;
      }
  for (guint r = 0; r < n_ranks; r++)
    g_hash_table_unref (per_rank[r]);
}

static void
steady_range (const Truth *truth, double *med, gint64 *low, gint64 *high)
{
  g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint s = 0; s < truth->n; s++)
    if (truth->steady[s])
      g_array_append_val (times, truth->time[s]);
  g_assert_cmpuint (times->len, >=, 10);
  *med = median (times);
  *low = g_array_index (times, gint64, 0);
  *high = g_array_index (times, gint64, times->len - 1);
}

/* Each capture's files unpacked: NULL-terminated paths. */
static char **
unpack (const char *name)
{
  GPtrArray *paths = g_ptr_array_new ();
  g_autofree char *one = g_strdup_printf ("critical/%s.sqlite.xz", name);
  g_autofree char *one_path = ws_test_data (one, NULL);

  if (g_file_test (one_path, G_FILE_TEST_EXISTS))
    g_ptr_array_add (paths, ws_test_unxz (one, tmp));
  else
    for (guint r = 0; r < 2; r++)
      {
        g_autofree char *rank = g_strdup_printf ("critical/%s_rank%u.sqlite.xz", name, r);

        g_ptr_array_add (paths, ws_test_unxz (rank, tmp));
      }
  g_ptr_array_add (paths, NULL);
  return (char **) g_ptr_array_free (paths, FALSE);
}

static WsRun *
load (char **paths)
{
  g_autoptr (GError) error = NULL;
  WsRun *run;

  if (paths[1] == NULL)
    return ws_test_load_paths ((const char *const *) paths);
  /* A job: as the window and the CLI open one. */
  run = ws_ranks_loader_load ((const char *const *) paths, WS_LOAD_ALL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (run->ranks);
  return run;
}

/* Replayed with its own weights, the graph gives back every step, and a
 * step's path tiles its range without a gap. */
static void
check_baseline_of (char **paths, WsRun *run)
{
  g_autoptr (WsCriticalPath) cp = ws_critical_path_new (run, NULL);
  Truth truth;
  guint n_steady = 0;

  sql_truth ((const char *const *) paths, &truth);
  g_assert_cmpuint (cp->steps->len, ==, truth.n);
  for (guint i = 0; i < cp->steps->len; i++)
    {
      const WsCpStep *st = &g_array_index (cp->steps, WsCpStep, i);
      gint64 covered = 0, at = st->end;

      g_assert_cmpuint (st->number, ==, i);
      g_assert_cmpint (st->time, ==, truth.time[i]);
      g_assert_cmpint (st->end - st->start, ==, truth.longest[i]);
      g_assert_cmpint (st->steady, ==, truth.steady[i]);
      n_steady += st->steady;
      g_assert_cmpuint (st->n, >, 0);
      for (guint k = 0; k < st->n; k++)
        {
          const WsCpSegment *s = &g_array_index (cp->segments, WsCpSegment, st->first + k);

          g_assert_cmpint (s->end, ==, at);
          g_assert_cmpint (s->start, <=, s->end + 1000000); /* clock skew only */
          covered += s->end - s->start;
          at = s->start;
        }
      g_assert_cmpint (at, ==, st->start);
      g_assert_cmpint (covered, ==, st->end - st->start);
    }
  g_assert_cmpuint (cp->n_steady, ==, n_steady);
  /* The tables add up to the paths. */
  {
    double kinds = 0, ranks = 0;

    for (guint k = 0; k < WS_CP_N_KINDS; k++)
      kinds += cp->by_kind[k];
    for (guint r = 0; r < cp->ranks->len; r++)
      ranks += ((WsCpItem *) g_ptr_array_index (cp->ranks, r))->on_path;
    g_assert_cmpfloat (fabs (kinds - ranks), <, 1.0);
  }
}

static void
check_baseline (const char *name)
{
  g_auto (GStrv) paths = unpack (name);
  g_autoptr (WsRun) run = load (paths);

  check_baseline_of (paths, run);
  for (guint i = 0; paths[i] != NULL; i++)
    g_remove (paths[i]);
}

static void
test_baseline (void)
{
  static const char *const names[] = {
    "gemm_full", "gemm_half", "sleep_on", "sleep_off", "gloo_slow", "gloo_even",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    check_baseline (names[i]);
}

typedef struct
{
  const char *before;
  const char *change;
  const char *after;
} Pair;

static void
check_pair (const Pair *pair, WsCpPrediction *out)
{
  g_auto (GStrv) before = unpack (pair->before);
  g_auto (GStrv) after = unpack (pair->after);
  g_autoptr (WsRun) run = load (before);
  g_autoptr (WsCriticalPath) cp = ws_critical_path_new (run, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (WsWhatIf) change = ws_what_if_parse (pair->change, &error);
  Truth b, a;
  double b_med, a_med;
  gint64 b_low, b_high, a_low, a_high;

  g_assert_no_error (error);
  sql_truth ((const char *const *) before, &b);
  sql_truth ((const char *const *) after, &a);
  steady_range (&b, &b_med, &b_low, &b_high);
  steady_range (&a, &a_med, &a_low, &a_high);
  ws_critical_path_predict (cp, &change, 1, out);
  g_assert_cmpuint (out->touched, >, 0);
  g_assert_cmpfloat (out->measured, ==, b_med);
  g_test_message ("%s %s: predicted %.0f ns (%" G_GINT64_FORMAT "–%" G_GINT64_FORMAT
                  "), %s measured %.0f ns (%" G_GINT64_FORMAT "–%" G_GINT64_FORMAT ")",
                  pair->before, pair->change, out->median, out->min, out->max, pair->after, a_med,
                  a_low, a_high);
  /* The change matters: the after is well off the before. */
  g_assert_cmpfloat (fabs (a_med - b_med), >, 0.2 * b_med);
  g_assert_cmpfloat (out->median, >=, (double) a_low);
  g_assert_cmpfloat (out->median, <=, (double) a_high);
  for (guint i = 0; before[i] != NULL; i++)
    g_remove (before[i]);
  for (guint i = 0; after[i] != NULL; i++)
    g_remove (after[i]);
}

static void
test_gemm_halved (void)
{
  static const Pair pair = { "gemm_full", "kernel:nvjet*=0.5x", "gemm_half" };
  WsCpPrediction p;

  check_pair (&pair, &p);
}

static void
test_sleep_removed (void)
{
  static const Pair pair = { "sleep_on", "nvtx:data=-12ms", "sleep_off" };
  WsCpPrediction p;

  check_pair (&pair, &p);
}

static void
test_rank_not_slowed (void)
{
  static const Pair pair = { "gloo_slow", "nvtx:data@rank1=-8ms", "gloo_even" };
  WsCpPrediction p;

  check_pair (&pair, &p);
}

/* A change on a kernel that is off the path buys nothing: the sleep-bound
 * steps of sleep_on do not get shorter with a GEMM twice as fast, and a
 * change on the other rank of the gloo job buys nothing either. */
static void
test_off_the_path (void)
{
  g_auto (GStrv) paths = unpack ("sleep_on");
  g_autoptr (WsRun) run = load (paths);
  g_autoptr (WsCriticalPath) cp = ws_critical_path_new (run, NULL);
  g_autoptr (WsWhatIf) change = ws_what_if_parse ("kernel:nvjet*=0.5x", NULL);
  WsCpPrediction p;
  const WsCpItem *gemm = NULL;

  ws_critical_path_predict (cp, &change, 1, &p);
  g_assert_cmpfloat (fabs (p.median - p.measured), <, 0.01 * p.measured);
  for (guint i = 0; i < cp->kernels->len; i++)
    if (g_str_has_prefix (((WsCpItem *) g_ptr_array_index (cp->kernels, i))->name, "nvjet"))
      gemm = g_ptr_array_index (cp->kernels, i);
  g_assert_nonnull (gemm);
  /* Busy 1.4 ms a step, on the path next to none of it. */
  g_assert_cmpfloat (gemm->busy, >, 1e6);
  g_assert_cmpfloat (gemm->on_path, <, 0.05 * gemm->busy);
  g_assert_cmpfloat (cp->by_kind[WS_CP_HOST], >, 0.8 * cp->median_time);
  for (guint i = 0; paths[i] != NULL; i++)
    g_remove (paths[i]);
}

/* The real 4-GPU DDP job whose rank 3 sleeps 15 ms in `data` each step
 * (tests/data/captures, issue 30): the graph gives back every step of the
 * four ranks, the path runs on the rank the Ranks page names, and taking
 * the sleep away predicts a step shorter by most of it, never by more.
 * Whether the prediction is the step of a rerun without the sleep needs
 * four GPUs again (issue 45). */
static void
test_nccl_job (void)
{
  g_autofree char *dir = ws_test_unpack ("captures/h200x4_ddp_sleep_capture.tar.xz");
  char *paths[5];
  g_autoptr (WsRun) run = NULL;
  g_autoptr (WsCriticalPath) cp = NULL;
  g_autoptr (WsRankSet) set = NULL;
  g_autoptr (WsWhatIf) change = ws_what_if_parse ("nvtx:data@rank3=-15ms", NULL);
  WsCpPrediction p;
  double total = 0;
  const WsCpItem *rank3;

  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *name = g_strdup_printf ("rank%u.sqlite", r);

      paths[r] = g_build_filename (dir, "ddp_sleep", "nsys", name, NULL);
    }
  paths[4] = NULL;
  run = load (paths);
  cp = ws_critical_path_new (run, NULL);
  check_baseline_of (paths, run);
  g_assert_cmpuint (cp->graph->n_nccl, >, 100);

  set = ws_rank_set_new_for_run (run);
  g_assert_cmpint (set->straggler.index, >=, 0);
  g_assert_cmpuint (set->straggler.rank, ==, 3);
  for (guint r = 0; r < cp->ranks->len; r++)
    total += ((WsCpItem *) g_ptr_array_index (cp->ranks, r))->on_path;
  rank3 = g_ptr_array_index (cp->ranks, (guint) set->straggler.index);
  g_assert_cmpstr (rank3->name, ==, "3");
  g_assert_cmpfloat (rank3->on_path, >, 0.9 * total);

  ws_critical_path_predict (cp, &change, 1, &p);
  g_test_message ("ddp_sleep without rank 3's sleep: %.0f ns (%" G_GINT64_FORMAT
                  "–%" G_GINT64_FORMAT "), from %.0f ns",
                  p.median, p.min, p.max, p.measured);
  g_assert_cmpuint (p.touched, ==, 14);
  g_assert_cmpfloat (p.median, >=, p.measured - 15e6 - 1e6);
  g_assert_cmpfloat (p.median, <=, p.measured - 7.5e6);
  for (guint r = 0; r < 4; r++)
    g_free (paths[r]);
  ws_test_rmtree (dir);
}

static void
test_parse (void)
{
  static const struct
  {
    const char *text;
    WsWhatIfTarget target;
    const char *pattern;
    gint rank;
    double factor;
    gint64 delta;
  } good[] = {
    { "kernel:*gemm*=0.5x", WS_WHAT_IF_KERNEL, "*gemm*", -1, 0.5, 0 },
    { "nvtx:data@rank3=-15ms", WS_WHAT_IF_NVTX, "data", 3, 1.0, -15000000 },
    { "range:forward=-30%", WS_WHAT_IF_RANGE, "forward", -1, 0.7, 0 },
    { "kernel:k@2=+200us", WS_WHAT_IF_KERNEL, "k", 2, 1.0, 200000 },
    { "nvtx:a=x2", WS_WHAT_IF_NVTX, "a", -1, 2.0, 0 },
    { "nvtx:a:b=-500ns", WS_WHAT_IF_NVTX, "a:b", -1, 1.0, -500 },
  };
  static const char *const bad[] = {
    "kernel",         "gemm=0.5x",     "op:x=0.5x",        "kernel:=0.5x",
    "kernel:x=0.5",   "kernel:x=15ms", "kernel:x=-x",      "kernel:x@rankA=0.5x",
    "kernel:x=-150%", "kernel:x=-0ms", "kernel:x=-1e300s",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsWhatIf) w = ws_what_if_parse (good[i].text, &error);

      g_assert_no_error (error);
      g_assert_cmpint (w->target, ==, good[i].target);
      g_assert_cmpstr (w->pattern, ==, good[i].pattern);
      g_assert_cmpint (w->rank, ==, good[i].rank);
      g_assert_cmpfloat (fabs (w->factor - good[i].factor), <, 1e-12);
      g_assert_cmpint (w->delta, ==, good[i].delta);
    }
  /* What a context menu asks: the name matched alone, its glob
   * characters taken as "?", on its rank in a job. */
  {
    g_autofree char *asked = ws_what_if_for_name ("kernel", "k<float*>[2]?@=", 3, "0.5x");
    g_autoptr (WsWhatIf) w = ws_what_if_parse (asked, NULL);
    GPatternSpec *spec;

    g_assert_cmpstr (asked, ==, "kernel:k<float?>?2]???@rank3=0.5x");
    g_assert_nonnull (w);
    g_assert_cmpint (w->rank, ==, 3);
    spec = g_pattern_spec_new (w->pattern);
    g_assert_true (g_pattern_spec_match_string (spec, "k<float*>[2]?@="));
    g_assert_false (g_pattern_spec_match_string (spec, "k<float*>[2]?@=x"));
    g_pattern_spec_free (spec);
  }
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WsWhatIf) w = ws_what_if_parse (bad[i], &error);

      g_assert_null (w);
      g_assert_nonnull (error);
      /* One line that quotes the change. */
      g_assert_nonnull (strstr (error->message, bad[i]));
      g_assert_null (strchr (error->message, '\n'));
    }
}

/* The command prints what the library computes, in every format, and
 * refuses what it cannot answer in one line. */
static void
test_cli (void)
{
  g_auto (GStrv) paths = unpack ("gemm_full");
  g_autoptr (WsRun) run = load (paths);
  g_autoptr (WsCriticalPath) cp = ws_critical_path_new (run, NULL);
  g_autoptr (WsWhatIf) change = ws_what_if_parse ("kernel:nvjet*=0.5x", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *table = NULL;
  g_autofree char *err = NULL;
  g_autofree char *expect = NULL;
  JsonObject *root, *first;
  WsCpPrediction p;

  ws_critical_path_predict (cp, &change, 1, &p);
  {
    const char *args[] = { "critical-path",      "--format", "json", "--what-if",
                           "kernel:nvjet*=0.5x", paths[0],   NULL };

    json = ws_test_cli_expect (args, 0, NULL);
  }
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpfloat (json_object_get_double_member (root, "median_ns"), ==, cp->median_time);
  first = json_array_get_object_element (json_object_get_array_member (root, "what_if"), 0);
  g_assert_cmpfloat (json_object_get_double_member (first, "predicted_ns"), ==, p.median);
  g_assert_cmpint (json_object_get_int_member (first, "min_ns"), ==, p.min);
  {
    const char *args[] = { "critical-path",      "--format", "csv", "--what-if",
                           "kernel:nvjet*=0.5x", paths[0],   NULL };
    g_autofree char *row = g_strdup_printf ("kernel:nvjet*=0.5x,%" G_GSIZE_FORMAT ",%u,%.0f,",
                                            p.touched, p.n_steps, p.median);

    csv = ws_test_cli_expect (args, 0, NULL);
    g_assert_nonnull (strstr (csv, row));
  }
  {
    const char *args[] = { "critical-path", "--what-if", "kernel:nvjet*=0.5x", paths[0], NULL };
    g_autofree char *pm = ws_format_duration (p.median);

    table = ws_test_cli_expect (args, 0, NULL);
    expect = g_strdup_printf ("the step becomes %s", pm);
    g_assert_nonnull (strstr (table, expect));
  }
  {
    const char *args[] = { "critical-path", "--what-if", "kernel:nvjet=0.5", paths[0], NULL };

    g_free (ws_test_cli_expect (args, 2, &err));
    g_assert_nonnull (strstr (err, "kernel:nvjet=0.5"));
    g_assert_cmpuint (ws_test_count_lines (err), ==, 1);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *args[] = { "critical-path", "--what-if", "kernel:nosuch*=0.5x", paths[0], NULL };

    g_free (ws_test_cli_expect (args, 2, &err));
    g_assert_nonnull (strstr (err, "matches nothing"));
    g_assert_cmpuint (ws_test_count_lines (err), ==, 1);
    g_clear_pointer (&err, g_free);
  }
  {
    g_autofree char *no_steps = ws_test_data ("nsys", "v2025.3_h100_probe.sqlite", NULL);
    const char *args[] = { "critical-path", no_steps, NULL };

    if (g_file_test (no_steps, G_FILE_TEST_EXISTS))
      {
        g_free (ws_test_cli_expect (args, 2, &err));
        g_assert_cmpuint (ws_test_count_lines (err), ==, 1);
      }
  }
  for (guint i = 0; paths[i] != NULL; i++)
    g_remove (paths[i]);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();
  g_test_add_func ("/critical-path/parse", test_parse);
  g_test_add_func ("/critical-path/baseline-is-the-run", test_baseline);
  g_test_add_func ("/critical-path/gemm-halved", test_gemm_halved);
  g_test_add_func ("/critical-path/sleep-removed", test_sleep_removed);
  g_test_add_func ("/critical-path/rank-not-slowed", test_rank_not_slowed);
  g_test_add_func ("/critical-path/off-the-path", test_off_the_path);
  g_test_add_func ("/critical-path/cli", test_cli);
  g_test_add_func ("/critical-path/nccl-job", test_nccl_job);
  status = g_test_run ();
  ws_test_rmtree (tmp);
  g_free (tmp);
  return status;
}
