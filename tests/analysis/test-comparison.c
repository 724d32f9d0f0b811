/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ws-comparison.h"
#include "ws-run-loader.h"
#include "ws-stats.h"
#include "ws-test-load.h"
#include "ws-test-rank-sql.h"
#include "ws-test-util.h"

static WsRun *
load (const char *name)
{
  WsRun *run = ws_test_load_nsys (name);

  return run;
}

/* SELECT sum(end - start) of the kernels named @name, through SQLite. */
static gint64
sql_total (const char *file, const char *name, gint64 *count)
{
  g_autofree char *path = ws_test_data ("nsys", file, NULL);
  g_auto (GStrv) parts = g_strsplit (name, "'", -1);
  g_autofree char *quoted = g_strjoinv ("''", parts);
  g_autofree char *sql =
    g_strdup_printf ("SELECT coalesce(sum(k.end - k.start), 0) || ' ' || count(*) "
                     "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
                     "WHERE s.value = '%s'",
                     quoted);
  g_autofree char *text = ws_test_sqlite_text (path, sql);
  g_auto (GStrv) fields = g_strsplit (text, " ", 2);

  *count = g_ascii_strtoll (fields[1], NULL, 10);
  return g_ascii_strtoll (fields[0], NULL, 10);
}

/* One row of an nsys stats kernel summary: total ns and instances. */
typedef struct
{
  gint64 total;
  gint64 count;
} StatsRow;

/* The cells of one CSV line, with RFC 4180 quotes: the test's own split,
 * so that the truth is not read by the reader under test. */
static GStrv
csv_cells (const char *line)
{
  g_autoptr (GStrvBuilder) cells = g_strv_builder_new ();
  g_autoptr (GString) cell = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = line; *p != '\0'; p++)
    {
      if (quoted && *p == '"' && p[1] == '"')
        g_string_append_c (cell, *p++);
      else if (*p == '"')
        quoted = !quoted;
      else if (*p == ',' && !quoted)
        {
          g_strv_builder_add (cells, cell->str);
          g_string_truncate (cell, 0);
        }
      else if (*p != '\r')
        g_string_append_c (cell, *p);
    }
  g_strv_builder_add (cells, cell->str);
  return g_strv_builder_end (cells);
}

/* tests/data/nsys-stats/@name (a cuda_gpu_kern_sum CSV of `nsys stats`):
 * name → StatsRow, and the sum of its totals in @grand_total. */
static GHashTable *
read_kern_sum (const char *name, gint64 *grand_total)
{
  g_autofree char *path = ws_test_data ("nsys-stats", name, NULL);
  g_autofree char *text = ws_test_read (path);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GHashTable *rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  *grand_total = 0;
  g_assert_true (g_str_has_prefix (lines[0], "Time (%),Total Time (ns),Instances,"));
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) cells = csv_cells (lines[i]);
      StatsRow *row = g_new (StatsRow, 1);

      g_assert_cmpuint (g_strv_length (cells), ==, 9);
      row->total = g_ascii_strtoll (cells[1], NULL, 10);
      row->count = g_ascii_strtoll (cells[2], NULL, 10);
      *grand_total += row->total;
      g_assert_true (g_hash_table_insert (rows, g_strdup (cells[8]), row));
    }
  return rows;
}

/* Matched by demangled name, each side's totals and instances are that
 * run's own, as SQLite sums them and as nsys stats lists them; Δ and
 * ratio follow. */
static void
test_sides_equal_sql (void)
{
  g_autoptr (WsRun) before = load ("v2025.3_h100_train_fp32.sqlite");
  g_autoptr (WsRun) after = load ("v2025.3_h100_train_bf16.sqlite");
  g_autoptr (WsComparison) cmp = ws_comparison_new (before, after, WS_MATCH_DEMANGLED);
  gint64 sum_before = 0, sum_after = 0, stats_before = 0, stats_after = 0;
  g_autoptr (GHashTable) rows_before =
    read_kern_sum ("v2025.3_h100_train_fp32_cuda_gpu_kern_sum.csv", &stats_before);
  g_autoptr (GHashTable) rows_after =
    read_kern_sum ("v2025.3_h100_train_bf16_cuda_gpu_kern_sum.csv", &stats_after);
  guint listed_before = 0, listed_after = 0;

  for (guint i = 0; i < cmp->kernels->len; i++)
    {
      const WsDelta *d = &g_array_index (cmp->kernels, WsDelta, i);
      gint64 bc = 0, ac = 0;
      gint64 bt = sql_total ("v2025.3_h100_train_fp32.sqlite", d->key, &bc);
      gint64 at = sql_total ("v2025.3_h100_train_bf16.sqlite", d->key, &ac);
      const StatsRow *rb = g_hash_table_lookup (rows_before, d->key);
      const StatsRow *ra = g_hash_table_lookup (rows_after, d->key);

      g_assert_cmpint (d->before_total, ==, rb != NULL ? rb->total : 0);
      g_assert_cmpint (d->before_count, ==, rb != NULL ? rb->count : 0);
      g_assert_cmpint (d->after_total, ==, ra != NULL ? ra->total : 0);
      g_assert_cmpint (d->after_count, ==, ra != NULL ? ra->count : 0);
      listed_before += rb != NULL;
      listed_after += ra != NULL;

      g_assert_cmpint (d->before_total, ==, bt);
      g_assert_cmpint (d->after_total, ==, at);
      g_assert_cmpint (d->before_count, ==, bc);
      g_assert_cmpint (d->after_count, ==, ac);
      g_assert_cmpint (d->delta, ==, at - bt);
      if (bt > 0)
        g_assert_cmpfloat (d->ratio, ==, (double) at / (double) bt);
      else
        g_assert_true (isnan (d->ratio));
      if (i > 0)
        g_assert_cmpint (ABS (g_array_index (cmp->kernels, WsDelta, i - 1).delta), >=,
                         ABS (d->delta));
      sum_before += d->before_total;
      sum_after += d->after_total;
    }
  /* Every row of both nsys stats CSVs is a kernel of the comparison, and
   * the two runs' kernel time is what nsys stats sums. */
  g_assert_cmpuint (listed_before, ==, g_hash_table_size (rows_before));
  g_assert_cmpuint (listed_after, ==, g_hash_table_size (rows_after));
  g_assert_cmpint (sum_before, ==, stats_before);
  g_assert_cmpint (sum_after, ==, stats_after);
  g_assert_cmpfloat (cmp->gpu_time.before, ==, (double) stats_before);
  g_assert_cmpfloat (cmp->gpu_time.after, ==, (double) stats_after);
}

static guint
count_presence (const WsComparison *cmp, WsPresence presence)
{
  guint n = 0;

  for (guint i = 0; i < cmp->kernels->len; i++)
    n += g_array_index (cmp->kernels, WsDelta, i).presence == presence;
  return n;
}

/* fp32 → bf16 by demangled name: 23 names before, 26 after; 17 only
 * before, 20 only after, 6 in both (counted with SQL over the two
 * exports: names of one not among the names of the other). */
static void
test_presence_sets (void)
{
  g_autoptr (WsRun) before = load ("v2025.3_h100_train_fp32.sqlite");
  g_autoptr (WsRun) after = load ("v2025.3_h100_train_bf16.sqlite");
  g_autoptr (WsComparison) cmp = ws_comparison_new (before, after, WS_MATCH_DEMANGLED);
  const WsDelta *d;

  g_assert_cmpuint (count_presence (cmp, WS_PRESENT_ONLY_BEFORE), ==, 17);
  g_assert_cmpuint (count_presence (cmp, WS_PRESENT_ONLY_AFTER), ==, 20);
  g_assert_cmpuint (count_presence (cmp, WS_PRESENT_BOTH), ==, 6);
  g_assert_cmpfloat (cmp->n_kernels.before, ==, 23);
  g_assert_cmpfloat (cmp->n_kernels.after, ==, 26);

  /* The fp32 SIMT GEMM is gone, the Hopper bf16 GEMMs are new. */
  d = ws_comparison_find (
    cmp, "void cutlass::Kernel2<cutlass_80_simt_sgemm_128x256_8x4_nt_align1>(T1::Params)");
  g_assert_nonnull (d);
  g_assert_cmpint (d->presence, ==, WS_PRESENT_ONLY_BEFORE);
  g_assert_cmpint (d->before_total, ==, 62387132);
  d = ws_comparison_find (cmp, "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT");
  g_assert_nonnull (d);
  g_assert_cmpint (d->presence, ==, WS_PRESENT_ONLY_AFTER);
}

/* Normalised names ignore template arguments and parameters: the float
 * and bfloat16 instantiations of a PyTorch kernel become one. */
static void
test_normalized_matching (void)
{
  g_autoptr (WsRun) before = load ("v2025.3_h100_train_fp32.sqlite");
  g_autoptr (WsRun) after = load ("v2025.3_h100_train_bf16.sqlite");
  g_autoptr (WsComparison) cmp = ws_comparison_new (before, after, WS_MATCH_NORMALIZED);
  const WsDelta *d =
    ws_comparison_find (cmp, "at::native::<unnamed>::vectorized_layer_norm_kernel");
  gint64 bc, ac;
  gint64 bt = sql_total ("v2025.3_h100_train_fp32.sqlite",
                         "void at::native::<unnamed>::vectorized_layer_norm_kernel<float, float, "
                         "(bool)0>(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)",
                         &bc);
  gint64 at =
    sql_total ("v2025.3_h100_train_bf16.sqlite",
               "void at::native::<unnamed>::vectorized_layer_norm_kernel<c10::BFloat16, float, "
               "(bool)0>(int, T2, const T1 *, const T1 *, const T1 *, T2 *, T2 *, T1 *)",
               &ac);

  g_assert_nonnull (d);
  g_assert_cmpint (d->presence, ==, WS_PRESENT_BOTH);
  g_assert_cmpint (bt, >, 0);
  g_assert_cmpint (d->before_total, ==, bt);
  g_assert_cmpint (d->after_total, ==, at);
  g_assert_cmpint (d->before_count, ==, bc);

  /* Seven multi_tensor_apply_kernel instantiations fold into one key. */
  d = ws_comparison_find (cmp, "at::native::<unnamed>::multi_tensor_apply_kernel");
  g_assert_nonnull (d);
  g_assert_cmpuint (d->n_before_names, ==, 7);
  g_assert_cmpuint (d->n_after_names, ==, 7);
}

static void
test_keys (void)
{
  static const char *const name =
    "void at::native::<unnamed>::cunn_SoftMaxForwardReg<float, float, float, "
    "at::native::<unnamed>::SoftMaxForwardEpilogue, long, (int)8>(T2 *, const T1 *, T4)";
  g_autofree char *normalized = ws_comparison_key (name, WS_MATCH_NORMALIZED);
  g_autofree char *shortname = ws_comparison_key (name, WS_MATCH_SHORT);
  g_autofree char *plain = ws_comparison_key ("tiny(float *)", WS_MATCH_SHORT);
  g_autofree char *op =
    ws_comparison_key ("void foo::bar<(bool)1>::operator()<int>(int)", WS_MATCH_NORMALIZED);

  g_assert_cmpstr (normalized, ==, "at::native::<unnamed>::cunn_SoftMaxForwardReg");
  g_assert_cmpstr (shortname, ==, "cunn_SoftMaxForwardReg");
  g_assert_cmpstr (plain, ==, "tiny");
  g_assert_cmpstr (op, ==, "foo::bar::operator()");
}

/* The MFU pair: the same 27 kernels, less time after. */
static void
test_mfu_pair (void)
{
  g_autoptr (WsRun) before = load ("v2026.2_nsysai_mfu_before.sqlite");
  g_autoptr (WsRun) after = load ("v2026.2_nsysai_mfu_after.sqlite");
  g_autoptr (WsComparison) cmp = ws_comparison_new (before, after, WS_MATCH_DEMANGLED);
  g_autofree char *headline = ws_comparison_headline (cmp);

  g_assert_cmpuint (cmp->kernels->len, ==, 27);
  g_assert_cmpuint (count_presence (cmp, WS_PRESENT_BOTH), ==, 27);
  g_assert_cmpfloat (cmp->launches.before, ==, 4010);
  g_assert_cmpfloat (cmp->launches.after, ==, 3587);
  g_assert_cmpfloat (cmp->gpu_time.after, <, cmp->gpu_time.before);
  g_assert_true (g_str_has_prefix (headline, "after is 1.1× faster on the GPU: −"));
  g_test_message ("%s", headline);
}

/* fp32 → bf16: 8.6× less kernel time, most of it the fp32 xmma GEMM. */
static void
test_headline (void)
{
  g_autoptr (WsRun) before = load ("v2025.3_h100_train_fp32.sqlite");
  g_autoptr (WsRun) after = load ("v2025.3_h100_train_bf16.sqlite");
  g_autoptr (WsComparison) cmp = ws_comparison_new (before, after, WS_MATCH_DEMANGLED);
  g_autofree char *headline = ws_comparison_headline (cmp);
  g_autofree char *swapped_headline = NULL;
  g_autoptr (WsComparison) swapped = ws_comparison_new (after, before, WS_MATCH_DEMANGLED);
  gint64 stats_before = 0, stats_after = 0;
  g_autoptr (GHashTable) rows_before =
    read_kern_sum ("v2025.3_h100_train_fp32_cuda_gpu_kern_sum.csv", &stats_before);
  g_autoptr (GHashTable) rows_after =
    read_kern_sum ("v2025.3_h100_train_bf16_cuda_gpu_kern_sum.csv", &stats_after);

  /* The nsys stats totals: 172,710,271 ns before, 19,995,357 ns after,
   * 8.64× and 152.7 ms apart, which the headline rounds to 8.6× and 153 ms. */
  g_assert_cmpfloat (cmp->gpu_time.before, ==, (double) stats_before);
  g_assert_cmpfloat (cmp->gpu_time.after, ==, (double) stats_after);
  g_assert_cmpint (stats_before, ==, 172710271);
  g_assert_cmpint (stats_after, ==, 19995357);
  g_assert_true (g_str_has_prefix (
    headline, "after is 8.6× faster on the GPU: −153 ms, 42% of it in sm80_xmma_gem"));
  swapped_headline = ws_comparison_headline (swapped);
  g_assert_true (g_str_has_prefix (swapped_headline, "after is 8.6× slower on the GPU: +153 ms"));
}

static void
test_cli_csv (void)
{
  g_autofree char *a = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  g_autofree char *b = ws_test_data ("nsys", "v2025.3_h100_train_bf16.sqlite", NULL);
  /* The whole runs: the totals nsys stats gives for each export. */
  const char *argv[] = { ws_test_cli (), "compare", "--whole-run", "--format", "csv", a, b, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_auto (GStrv) lines = NULL;
  guint only_before = 0, only_after = 0, both = 0;

  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpstr (
    lines[0], ==,
    "kernel,before_total_ns,after_total_ns,delta_ns,ratio,before_instances,after_instances,status");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      only_before += g_str_has_suffix (lines[i], ",only_before");
      only_after += g_str_has_suffix (lines[i], ",only_after");
      both += g_str_has_suffix (lines[i], ",both");
    }
  g_assert_cmpuint (only_before, ==, 17);
  g_assert_cmpuint (only_after, ==, 20);
  g_assert_cmpuint (both, ==, 6);
  /* The largest change first: the removed fp32 xmma GEMM, 64379009 ns. */
  g_assert_true (g_str_has_prefix (
    lines[1],
    "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize256x64x8_stage3_warpsize2x2x1_ffma_aligna4_"
    "alignc4_execute_kernel__5x_cublas,64379009,0,-64379009,0.000,12,0,only_before"));
}

/* The kernel table of `compare` (the section between its dashed rule and
 * the blank line after) as lines, run with COLUMNS=@columns (NULL: unset). */
static char *
compare_output (const char *format, const char *columns)
{
  g_autofree char *a = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  g_autofree char *b = ws_test_data ("nsys", "v2025.3_h100_train_bf16.sqlite", NULL);
  g_autofree char *env = g_find_program_in_path ("env");
  g_autofree char *setting = g_strdup_printf ("COLUMNS=%s", columns);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL, *err = NULL;

  g_ptr_array_add (argv, env);
  if (columns != NULL)
    g_ptr_array_add (argv, setting);
  else
    {
      g_ptr_array_add (argv, "-u");
      g_ptr_array_add (argv, "COLUMNS");
    }
  g_ptr_array_add (argv, (gpointer) ws_test_cli ());
  g_ptr_array_add (argv, "compare");
  /* The whole runs' 43 kernels, not the steady states'. */
  g_ptr_array_add (argv, "--whole-run");
  g_ptr_array_add (argv, "--format");
  g_ptr_array_add (argv, (gpointer) format);
  g_ptr_array_add (argv, a);
  g_ptr_array_add (argv, b);
  g_ptr_array_add (argv, NULL);
  g_assert_cmpint (ws_test_run ((const char *const *) argv->pdata, &out, &err), ==, 0);
  return g_steal_pointer (&out);
}

/* A terminal's table fits its width ($COLUMNS, else 120) by shortening the
 * kernel names in the middle, keeping both ends: PyTorch's names made
 * lines of 1,500 characters.  CSV and Markdown keep the full names: the
 * longest name of the fp32 run, by SQL, is in both whole. */
static void
test_cli_table_fits_terminal (void)
{
  g_autofree char *fp32 = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  g_autofree char *longest = ws_test_sqlite_text (
    fp32, "SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
          "k.demangledName ORDER BY length(s.value) DESC LIMIT 1");
  static const struct
  {
    const char *columns;
    glong width;
  } widths[] = { { NULL, 120 }, { "100", 100 }, { "200", 200 } };

  g_test_message ("the longest name: %ld characters", g_utf8_strlen (longest, -1));
  g_assert_cmpint (g_utf8_strlen (longest, -1), >, 300);
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      g_autofree char *out = compare_output ("table", widths[w].columns);
      g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
      gboolean in_table = FALSE;
      glong widest = 0;
      guint rows = 0, shortened = 0;

      for (guint i = 0; lines[i] != NULL; i++)
        {
          if (g_str_has_prefix (lines[i], " ---"))
            {
              in_table = TRUE;
              widest = MAX (widest, g_utf8_strlen (lines[i], -1));
              continue;
            }
          if (!in_table)
            continue;
          if (lines[i][0] == '\0')
            break;
          rows++;
          widest = MAX (widest, g_utf8_strlen (lines[i], -1));
          shortened += strstr (lines[i], "…") != NULL;
        }
      g_test_message ("COLUMNS=%s: %u rows, %u names shortened, widest line %ld",
                      widths[w].columns != NULL ? widths[w].columns : "(unset)", rows, shortened,
                      widest);
      g_assert_cmpuint (rows, ==, 43);
      g_assert_cmpint (widest, <=, widths[w].width);
      g_assert_cmpuint (shortened, >, 0);
      /* The removed fp32 GEMM: both ends of its name, the middle elided. */
      {
        const char *row = strstr (out, "\n sm80_xmma");
        g_autofree char *line = row != NULL ? g_strndup (row + 1, strcspn (row + 1, "\n")) : NULL;

        g_assert_nonnull (line);
        g_assert_nonnull (strstr (line, "…"));
        g_assert_nonnull (strstr (line, "5x_cublas "));
      }
      g_assert_null (strstr (out, longest));
    }
  {
    g_autofree char *csv = compare_output ("csv", "80");
    g_autofree char *md = compare_output ("md", "80");
    g_autoptr (GString) escaped = g_string_new (NULL);

    /* Markdown escapes what would start emphasis, HTML or code. */
    for (const char *p = longest; *p != '\0'; p++)
      {
        if (strchr ("|\\*_<>[]`", *p) != NULL)
          g_string_append_c (escaped, '\\');
        g_string_append_c (escaped, *p);
      }
    g_assert_nonnull (strstr (csv, longest));
    g_assert_nonnull (strstr (md, escaped->str));
  }
}

/* The GPU busy share is the union of the kernels' and memory operations'
 * intervals (merged from the two sorted tables) over the run's span: the
 * union computed by SQL's window functions is the truth. */
static void
test_busy_share_equals_sql (void)
{
  static const char *const files[] = { "v2025.3_h100_probe.sqlite",
                                       "v2024.5_pipit_cloverleaf_4gpu.sqlite",
                                       "v2025.3_h100_train_bf16.sqlite", "v2021.2_mordred.sqlite" };

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    {
      g_autofree char *path = ws_test_data ("nsys", files[f], NULL);
      g_autoptr (WsRun) run = ws_test_load_nsys (files[f]);
      g_autoptr (GString) events =
        g_string_new ("SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL");
      g_autofree char *sql = NULL, *busy = NULL;
      double ours =
        ws_comparison_gpu_busy_share (run) * (double) (run->end_time - run->origin) / 100;

      for (guint t = 0; t < 2; t++)
        {
          const char *table = t == 0 ? "CUPTI_ACTIVITY_KIND_MEMCPY" : "CUPTI_ACTIVITY_KIND_MEMSET";

          if (ws_test_sqlite_count (path, table) >= 0)
            g_string_append_printf (events, " UNION ALL SELECT start, end FROM %s", table);
        }
      sql = g_strdup_printf (
        "WITH ev AS (%s), "
        "o AS (SELECT start, end, MAX(end) OVER (ORDER BY start, end ROWS BETWEEN UNBOUNDED "
        "PRECEDING AND 1 PRECEDING) AS prev FROM ev), "
        "g AS (SELECT start, end, SUM(CASE WHEN prev IS NULL OR start > prev THEN 1 ELSE 0 END) "
        "OVER (ORDER BY start, end) AS grp FROM o) "
        "SELECT SUM(e - s) FROM (SELECT MIN(start) AS s, MAX(end) AS e FROM g GROUP BY grp)",
        events->str);
      busy = ws_test_sqlite_text (path, sql);
      g_test_message ("%s: busy %s ns by SQL, %.0f ns (%.2f%%)", files[f], busy, ours,
                      ws_comparison_gpu_busy_share (run));
      g_assert_cmpfloat (fabs (ours - g_ascii_strtod (busy, NULL)), <, 1);
    }
}

/* By default two runs with steps compare over their steady states, and
 * the headline leads with the medians per step (tests/analysis/test-steps.c checks
 * them against SQL): the fp32 loop launched 28.8 ms of GPU work per step,
 * the bf16 one 3.31 ms, while the steps themselves took a little longer. */
static void
test_cli_per_step (void)
{
  g_autofree char *a = ws_test_data ("nsys", "v2025.3_h100_train_fp32.sqlite", NULL);
  g_autofree char *b = ws_test_data ("nsys", "v2025.3_h100_train_bf16.sqlite", NULL);
  const char *argv[] = { ws_test_cli (), "compare", a, b, NULL };
  const char *csv_argv[] = { ws_test_cli (), "compare", "--format", "csv", a, b, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *csv = NULL, *csv_err = NULL;

  /* The sentences unwrapped: a terminal as wide as COLUMNS allows. */
  g_setenv ("COLUMNS", "10000", TRUE);
  g_assert_cmpint (ws_test_run (argv, &out, &err), ==, 0);
  g_unsetenv ("COLUMNS");
  g_assert_true (g_str_has_prefix (
    out, "per step: GPU 8.7× faster (28.8 ms → 3.31 ms), wall 1.1× slower (1.12 ms → 1.18 ms); "));
  g_assert_nonnull (strstr (out, "\nCompared over the steady states: before steps 2–5 of “step "
                                 "N” (4 of 6; 4.54 ms), after steps 1–5 of “step N” (5 of 6; "));
  /* The CSV stays a table; the scope is said on standard error. */
  g_assert_cmpint (ws_test_run (csv_argv, &csv, &csv_err), ==, 0);
  g_assert_true (g_str_has_prefix (csv, "kernel,before_total_ns,"));
  g_assert_true (g_str_has_prefix (csv_err, "Compared over the steady states: "));
}

/* The steady span of @file by SQL: its "step N" ranges, the first and any
 * over twice the median of the others (the first left out) warm-up
 * (docs/NOTES.md, "The warm-up rule"); from the first steady step's start
 * to the last one's end (these loops have one steady stretch). */
static void
sql_steady_span (const char *path, gint64 *from, gint64 *to)
{
  g_autofree char *text = ws_test_sqlite_text (
    path, "SELECT group_concat(n.start || ' ' || n.end, ' ') FROM (SELECT n.start, n.end FROM "
          "NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId WHERE coalesce(n.text, s.value) "
          "LIKE 'step %' AND n.end IS NOT NULL ORDER BY n.start) n");
  g_auto (GStrv) cells = g_strsplit (text, " ", -1);
  guint n = g_strv_length (cells) / 2;
  g_autofree gint64 *walls = g_new (gint64, n);

  g_assert_cmpuint (n, >, 2);
  for (guint i = 0; i < n; i++)
    walls[i] =
      g_ascii_strtoll (cells[2 * i + 1], NULL, 10) - g_ascii_strtoll (cells[2 * i], NULL, 10);
  *from = G_MAXINT64;
  *to = G_MININT64;
  for (guint i = 1; i < n; i++)
    {
      g_autofree gint64 *others = g_new (gint64, n);
      guint k = 0;

      for (guint j = 1; j < n; j++)
        if (j != i)
          others[k++] = walls[j];
      if ((double) walls[i] > 2 * ws_test_median_exact (others, k))
        continue;
      *from = MIN (*from, g_ascii_strtoll (cells[2 * i], NULL, 10));
      *to = MAX (*to, g_ascii_strtoll (cells[2 * i + 1], NULL, 10));
    }
}

/* Over the steady states (the default with steps), each side's kernel
 * totals and instances are those SQL finds launched in the steady span
 * (placed at their launch call): per kernel where the row's name is the
 * side's own, and in sum over every row. */
static void
test_cli_steady_deltas_equal_sql (void)
{
  const char *files[] = { "v2025.3_h100_train_fp32.sqlite", "v2025.3_h100_train_bf16.sqlite" };
  g_autofree char *a = ws_test_data ("nsys", files[0], NULL);
  g_autofree char *b = ws_test_data ("nsys", files[1], NULL);
  const char *argv[] = { ws_test_cli (), "compare", "--format", "csv", a, b, NULL };
  g_autofree char *csv = NULL;
  g_auto (GStrv) lines = NULL;
  GHashTable *truth[2] = { NULL, NULL };
  gint64 sum_sql[2] = { 0, 0 }, sum_csv[2] = { 0, 0 };
  guint matched = 0;

  for (guint side = 0; side < 2; side++)
    {
      const char *path = side == 0 ? a : b;
      gint64 from, to;
      g_autofree char *sql = NULL, *text = NULL;
      g_auto (GStrv) rows = NULL;

      sql_steady_span (path, &from, &to);
      sql = g_strdup_printf (
        "SELECT group_concat(x, char(10)) FROM (SELECT d.value || char(31) || "
        "sum(k.end - k.start) || char(31) || count(*) AS x FROM "
        "CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = "
        "k.correlationId AND r.globalTid >> 24 = k.globalPid >> 24 JOIN StringIds d ON d.id = "
        "k.demangledName WHERE r.start >= %" G_GINT64_FORMAT " AND r.start < %" G_GINT64_FORMAT
        " GROUP BY d.value)",
        from, to);
      text = ws_test_sqlite_text (path, sql);
      rows = g_strsplit (text, "\n", -1);
      truth[side] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      for (guint i = 0; rows[i] != NULL; i++)
        {
          g_auto (GStrv) f = g_strsplit (rows[i], "\x1f", 3);
          StatsRow *row = g_new (StatsRow, 1);

          if (g_strv_length (f) != 3)
            {
              g_free (row);
              continue;
            }
          row->total = g_ascii_strtoll (f[1], NULL, 10);
          row->count = g_ascii_strtoll (f[2], NULL, 10);
          sum_sql[side] += row->total;
          g_hash_table_insert (truth[side], g_strdup (f[0]), row);
        }
      g_assert_cmpuint (g_hash_table_size (truth[side]), >, 0);
    }
  g_assert_cmpint (ws_test_run (argv, &csv, NULL), ==, 0);
  lines = g_strsplit (csv, "\n", -1);
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) cells = csv_cells (lines[i]);

      for (guint side = 0; side < 2; side++)
        {
          gint64 total = g_ascii_strtoll (cells[1 + side], NULL, 10);
          gint64 count = g_ascii_strtoll (cells[5 + side], NULL, 10);
          const StatsRow *row = g_hash_table_lookup (truth[side], cells[0]);

          sum_csv[side] += total;
          if (row != NULL && count > 0)
            {
              g_assert_cmpint (total, ==, row->total);
              g_assert_cmpint (count, ==, row->count);
              matched++;
            }
        }
    }
  g_test_message ("%u kernel rows equal SQL; totals %" G_GINT64_FORMAT " and %" G_GINT64_FORMAT,
                  matched, sum_sql[0], sum_sql[1]);
  g_assert_cmpuint (matched, >, 5);
  g_assert_cmpint (sum_csv[0], ==, sum_sql[0]);
  g_assert_cmpint (sum_csv[1], ==, sum_sql[1]);
  g_hash_table_unref (truth[0]);
  g_hash_table_unref (truth[1]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/comparison/sides-equal-sql", test_sides_equal_sql);
  g_test_add_func ("/comparison/only-before-and-after-sets", test_presence_sets);
  g_test_add_func ("/comparison/normalized-names-match-instantiations", test_normalized_matching);
  g_test_add_func ("/comparison/keys", test_keys);
  g_test_add_func ("/comparison/mfu-pair", test_mfu_pair);
  g_test_add_func ("/comparison/headline", test_headline);
  g_test_add_func ("/comparison/cli-csv", test_cli_csv);
  g_test_add_func ("/comparison/busy-share-equals-sql", test_busy_share_equals_sql);
  g_test_add_func ("/comparison/cli-table-fits-terminal", test_cli_table_fits_terminal);

  g_test_add_func ("/comparison/cli/per-step-steady-state", test_cli_per_step);
  g_test_add_func ("/comparison/cli/steady-deltas-equal-sql", test_cli_steady_deltas_equal_sql);
  return g_test_run ();
}
