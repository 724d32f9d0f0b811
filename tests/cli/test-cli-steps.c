/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ws-test-rank-sql.h"
#include "ws-test-util.h"

/* `warpscope-cli steps` and `render --view steps` as the README and the
 * man page promise them, checked against SQL written here over the GPT-2
 * capture (steps "训练步 N") and the DDP straggler's export (steps
 * "step N" with an "extra work" range inside each). */

static char *tmp;
static char *gpt2;
static char *gpt2_tmp;
static char *rank3;

static const char *
gpt2_db (void)
{
  if (gpt2 == NULL)
    {
      g_autofree char *dir = ws_test_unpack_gpt2 (&gpt2_tmp);

      gpt2 = g_build_filename (dir, "nsys", "GPT2__.sqlite", NULL);
    }
  return gpt2;
}

static const char *
rank3_db (void)
{
  if (rank3 == NULL)
    rank3 = ws_test_unxz ("multirank/rank3.sqlite.xz", tmp);
  return rank3;
}

static gint64
sql_int (const char *db, const char *sql)
{
  g_autofree char *text = ws_test_sqlite_text (db, sql);

  g_assert_nonnull (text);
  return g_ascii_strtoll (text, NULL, 10);
}

static int
compare_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The median of @n values; of an even count, the mean of the middle two. */
static double
median (const gint64 *values, guint n)
{
  g_autofree gint64 *sorted = g_memdup2 (values, n * sizeof (gint64));

  g_assert_cmpuint (n, >, 0);
  qsort (sorted, n, sizeof (gint64), compare_i64);
  if (n % 2 == 1)
    return (double) sorted[n / 2];
  return ((double) sorted[n / 2 - 1] + (double) sorted[n / 2]) / 2;
}

/* One NVTX push/pop range, straight from the export. */
typedef struct
{
  gint64 start;
  gint64 end;
  guint32 pid;
} SqlRange;

/* The ranges named @name (a LIKE pattern), in start order, from SQL. */
static GArray *
sql_ranges (const char *db, const char *name)
{
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (SqlRange));
  g_autofree char *sql = g_strdup_printf (
    "SELECT group_concat(n.start || ':' || n.end || ':' || ((n.globalTid >> 24) & 16777215), ' ')"
    " FROM (SELECT n.* FROM NVTX_EVENTS n LEFT JOIN StringIds t ON t.id = n.textId"
    " WHERE n.eventType = 59 AND coalesce(n.text, t.value) LIKE '%s' ORDER BY n.start) n",
    name);
  g_autofree char *text = ws_test_sqlite_text (db, sql);
  g_auto (GStrv) items = g_strsplit (text != NULL ? text : "", " ", -1);

  for (guint i = 0; items[i] != NULL && items[i][0] != '\0'; i++)
    {
      SqlRange r;

      g_assert_cmpint (
        sscanf (items[i], "%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT ":%u", &r.start, &r.end, &r.pid),
        ==, 3);
      g_array_append_val (ranges, r);
    }
  return ranges;
}

/* The kernels launched (CUDA API call inside) between @s and @e by @pid. */
static gint64
sql_launches (const char *db, guint32 pid, gint64 s, gint64 e)
{
  g_autofree char *sql = g_strdup_printf (
    "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r"
    " ON r.correlationId = k.correlationId AND (r.globalTid & -16777216) = k.globalPid"
    " WHERE ((k.globalPid >> 24) & 16777215) = %u AND r.start >= %" G_GINT64_FORMAT
    " AND r.start <= %" G_GINT64_FORMAT,
    pid, s, e);

  return sql_int (db, sql);
}

/* The warm-up rule as the README states it: the first step, and steps over
 * twice the median wall time of the others, the first left out. */
static GArray *
warmups (const GArray *ranges)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (gboolean));

  for (guint i = 0; i < ranges->len; i++)
    {
      g_autofree gint64 *others = g_new (gint64, MAX (ranges->len, 1));
      gint64 wall =
        g_array_index (ranges, SqlRange, i).end - g_array_index (ranges, SqlRange, i).start;
      guint n = 0;
      gboolean warm;

      for (guint j = 1; j < ranges->len; j++)
        if (j != i)
          others[n++] =
            g_array_index (ranges, SqlRange, j).end - g_array_index (ranges, SqlRange, j).start;
      warm = i == 0 || (n > 0 && (double) wall > 2 * median (others, n));
      g_array_append_val (out, warm);
    }
  return out;
}

/* The CSV's lines after its header, checked against @ranges: the step
 * counter, the name (@name, followed by the counter when @numbered), the
 * start, the wall time, the launches (when @launches) and the warm-up flag; then the median row over the steady steps. */
static void
assert_csv_matches (const char *db, const char *out, GArray *ranges, const char *name,
                    gboolean numbered, gboolean launches)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  g_autoptr (GArray) warm = warmups (ranges);
  g_autofree gint64 *steady_walls = g_new (gint64, ranges->len);
  g_autofree gint64 *steady_launches = g_new (gint64, ranges->len);
  guint n_steady = 0;

  g_assert_cmpstr (lines[0], ==,
                   "step,name,start_ns,wall_ns,gpu_busy_ns,kernel_ns,memory_ns,idle_ns,launches,"
                   "warmup");
  /* The header, a row per step, the median row and the empty string after
   * the last newline. */
  g_assert_cmpuint (g_strv_length (lines), ==, ranges->len + 3);
  for (guint i = 0; i < ranges->len; i++)
    {
      const SqlRange *r = &g_array_index (ranges, SqlRange, i);
      g_auto (GStrv) cells = g_strsplit (lines[i + 1], ",", -1);
      g_autofree char *number = g_strdup_printf ("%u", i);
      g_autofree char *step_name = numbered ? g_strdup_printf ("%s%u", name, i) : g_strdup (name);
      gint64 wall = r->end - r->start;
      gint64 n_launches = launches ? sql_launches (db, r->pid, r->start, r->end) : 0;

      g_assert_cmpuint (g_strv_length (cells), ==, 10);
      g_assert_cmpstr (cells[0], ==, number);
      g_assert_cmpstr (cells[1], ==, step_name);
      g_assert_cmpint (g_ascii_strtoll (cells[2], NULL, 10), ==, r->start);
      g_assert_cmpint (g_ascii_strtoll (cells[3], NULL, 10), ==, wall);
      /* busy + idle = wall, kernel + memory = busy: the columns add up. */
      g_assert_cmpint (g_ascii_strtoll (cells[4], NULL, 10) + g_ascii_strtoll (cells[7], NULL, 10),
                       ==, wall);
      g_assert_cmpint (g_ascii_strtoll (cells[5], NULL, 10) + g_ascii_strtoll (cells[6], NULL, 10),
                       ==, g_ascii_strtoll (cells[4], NULL, 10));
      if (launches)
        g_assert_cmpint (g_ascii_strtoll (cells[8], NULL, 10), ==, n_launches);
      g_assert_cmpstr (cells[9], ==, g_array_index (warm, gboolean, i) ? "1" : "0");
      if (!g_array_index (warm, gboolean, i))
        {
          steady_walls[n_steady] = wall;
          steady_launches[n_steady++] = n_launches;
        }
    }
  {
    g_auto (GStrv) cells = g_strsplit (lines[ranges->len + 1], ",", -1);
    g_autofree char *label = g_strdup_printf ("steady state (%u steps)", n_steady);

    g_assert_cmpuint (g_strv_length (cells), ==, 10);
    g_assert_cmpstr (cells[0], ==, "median");
    g_assert_cmpstr (cells[1], ==, label);
    g_assert_cmpfloat (g_ascii_strtod (cells[3], NULL), ==, median (steady_walls, n_steady));
    if (launches)
      g_assert_cmpfloat (g_ascii_strtod (cells[8], NULL), ==, median (steady_launches, n_steady));
  }
  g_assert_cmpstr (lines[ranges->len + 2], ==, "");
}

/* GPT-2: six steps "训练步 0" … "训练步 5", step 0 the warm-up (2.6 s of
 * cuDNN and cuBLAS set-up), the median over steps 1-5 (24,193,344 ns, the
 * fixture's README). */
static void
test_gpt2_csv (void)
{
  const char *db = gpt2_db ();
  const char *args[] = { "steps", "--format", "csv", db, NULL };
  g_autofree char *out = ws_test_cli_expect (args, 0, NULL);
  g_autoptr (GArray) ranges = sql_ranges (db, "训练步 %");

  g_assert_cmpuint (ranges->len, ==, 6);
  assert_csv_matches (db, out, ranges, "训练步 ", TRUE, TRUE);
  g_assert_nonnull (strstr (out, "\nmedian,steady state (5 steps),,24193344.0,"));
}

/* --format json holds the same numbers as the CSV, and parses. */
static void
test_gpt2_json (void)
{
  const char *db = gpt2_db ();
  const char *csv_args[] = { "steps", "--format", "csv", db, NULL };
  const char *json_args[] = { "steps", "--format", "json", db, NULL };
  g_autofree char *csv = ws_test_cli_expect (csv_args, 0, NULL);
  g_autofree char *json = ws_test_cli_expect (json_args, 0, NULL);
  g_auto (GStrv) lines = g_strsplit (csv, "\n", -1);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  const char *const columns[] = { "start_ns",  "wall_ns", "gpu_busy_ns", "kernel_ns",
                                  "memory_ns", "idle_ns", "launches" };
  JsonObject *root, *steady, *med;
  JsonArray *steps;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "pattern"), ==, "训练步 N");
  steps = json_object_get_array_member (root, "steps");
  g_assert_cmpuint (json_array_get_length (steps), ==, 6);
  for (guint i = 0; i < 6; i++)
    {
      JsonObject *s = json_array_get_object_element (steps, i);
      g_auto (GStrv) cells = g_strsplit (lines[i + 1], ",", -1);

      g_assert_cmpint (json_object_get_int_member (s, "step"), ==, i);
      g_assert_cmpstr (json_object_get_string_member (s, "name"), ==, cells[1]);
      for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
        g_assert_cmpint (json_object_get_int_member (s, columns[c]), ==,
                         g_ascii_strtoll (cells[c + 2], NULL, 10));
      g_assert_cmpint (json_object_get_boolean_member (s, "warmup"), ==, i == 0);
    }
  steady = json_object_get_object_member (root, "steady_state");
  g_assert_cmpint (json_object_get_int_member (steady, "steps"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (steady, "warmup_steps"), ==, 1);
  med = json_object_get_object_member (steady, "median");
  g_assert_cmpfloat (json_object_get_double_member (med, "wall_ns"), ==, 24193344);
  {
    g_auto (GStrv) cells = g_strsplit (lines[7], ",", -1);

    for (guint c = 1; c < G_N_ELEMENTS (columns); c++)
      g_assert_cmpfloat (json_object_get_double_member (med, columns[c]), ==,
                         g_ascii_strtod (cells[c + 2], NULL));
  }
}

/* The table and Markdown carry the same rows and the median row. */
static void
test_gpt2_table_and_md (void)
{
  const char *db = gpt2_db ();
  const char *table_args[] = { "steps", "--format", "table", db, NULL };
  const char *md_args[] = { "steps", "--format", "md", db, NULL };
  g_autofree char *table = ws_test_cli_expect (table_args, 0, NULL);
  g_autofree char *md = ws_test_cli_expect (md_args, 0, NULL);

  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *name = g_strdup_printf ("训练步 %u", i);

      g_assert_nonnull (strstr (table, name));
      g_assert_nonnull (strstr (md, name));
    }
  g_assert_nonnull (strstr (table, "steady state (5 steps)"));
  /* The table groups digits: 24,193,344.0 ns. */
  g_assert_nonnull (strstr (table, "24,193,344.0"));
  g_assert_true (g_str_has_prefix (md, "| step | name | start\\_ns | wall\\_ns |"));
  g_assert_nonnull (strstr (md, "| median | steady state (5 steps) |"));
  g_assert_nonnull (strstr (md, "24193344.0"));
}

/* --range: the DDP straggler's "extra work" ranges, one per step, are the
 * steps; their number, starts and walls are SQL's. */
static void
test_range (void)
{
  const char *db = rank3_db ();
  const char *args[] = { "steps", "--range", "extra work", "--format", "csv", db, NULL };
  const char *none_args[] = { "steps", "--range", "no such range", db, NULL };
  g_autofree char *out = ws_test_cli_expect (args, 0, NULL);
  g_autofree char *err = NULL;
  g_autoptr (GArray) ranges = sql_ranges (db, "extra work");
  g_autofree char *none = NULL;

  g_assert_cmpuint (ranges->len, ==, 12);
  assert_csv_matches (db, out, ranges, "extra work", FALSE, FALSE);
  none = ws_test_cli_expect (none_args, 2, &err);
  g_assert_cmpstr (none, ==, "");
  g_assert_nonnull (strstr (err, "no NVTX range named “no such range”"));
}

/* --pid: the process that ran the steps gives what no --pid gives; any
 * other gives no steps, exit status 2. */
static void
test_pid (void)
{
  const char *db = rank3_db ();
  guint32 pid = (guint32) sql_int (
    db, "SELECT (globalTid >> 24) & 16777215 FROM NVTX_EVENTS WHERE eventType = 59 LIMIT 1");
  g_autofree char *mine = g_strdup_printf ("%u", pid);
  g_autofree char *other = g_strdup_printf ("%u", pid + 1);
  const char *all_args[] = { "steps", "--format", "csv", db, NULL };
  const char *mine_args[] = { "steps", "--pid", mine, "--format", "csv", db, NULL };
  const char *other_args[] = { "steps", "--pid", other, "--format", "csv", db, NULL };
  g_autofree char *all = ws_test_cli_expect (all_args, 0, NULL);
  g_autofree char *with_pid = ws_test_cli_expect (mine_args, 0, NULL);
  g_autofree char *err = NULL;
  g_autofree char *none = ws_test_cli_expect (other_args, 2, &err);
  g_autoptr (GArray) ranges = sql_ranges (db, "step %");

  g_assert_cmpuint (ranges->len, ==, 12);
  assert_csv_matches (db, all, ranges, "step ", TRUE, TRUE);
  g_assert_cmpstr (with_pid, ==, all);
  g_assert_cmpstr (none, ==, "");
  g_assert_nonnull (strstr (err, "no steps"));
}

/* Reads the PNG's width and height from its IHDR chunk. */
static void
png_size (const char *path, guint *width, guint *height)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  const guchar *b;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_cmpuint (len, >, 24);
  b = (const guchar *) data;
  g_assert_cmpmem (b, 8, "\x89PNG\r\n\x1a\n", 8);
  *width = (guint) b[16] << 24 | (guint) b[17] << 16 | (guint) b[18] << 8 | b[19];
  *height = (guint) b[20] << 24 | (guint) b[21] << 16 | (guint) b[22] << 8 | b[23];
}

/* render --view steps draws a PNG of the size asked; an export without
 * steps is refused. */
static void
test_render_steps (void)
{
  const char *db = gpt2_db ();
  g_autofree char *png = g_build_filename (tmp, "steps.png", NULL);
  g_autofree char *svg = g_build_filename (tmp, "steps.svg", NULL);
  const char *args[] = { "render", "--view", "steps", "--size", "800x400", "-o", png, db, NULL };
  const char *svg_args[] = { "render", "--view", "steps", "-o", svg, db, NULL };
  g_autofree char *svg_text = NULL;
  guint width = 0, height = 0;

  g_free (ws_test_cli_expect (args, 0, NULL));
  png_size (png, &width, &height);
  g_assert_cmpuint (width, ==, 800);
  g_assert_cmpuint (height, ==, 400);
  g_free (ws_test_cli_expect (svg_args, 0, NULL));
  svg_text = ws_test_read (svg);
  g_assert_nonnull (strstr (svg_text, "<svg"));
}

/* Issue 40 on the four-rank DDP job (tests/data/multirank): the step
 * walls by SQL over each rank's export (its NVTX step ranges,
 * ws-test-rank-sql.c), the documented rule applied here (per rank, then a
 * number warm-up on any rank is warm-up on all), and `steps`, `ranks` and
 * `diagnose` name the same warm-up steps; `steps` has a row per step and
 * rank, by step then rank, a median row per rank equal to SQL's, and marks
 * the straggler `ranks` names. */
static void
test_job_one_warmup (void)
{
  g_autofree char *dir = g_build_filename (tmp, "job", NULL);
  WsTestRankSql sql[4];
  g_autofree gboolean *warm = NULL;
  g_autofree char *csv = NULL, *ranks_json = NULL, *diag = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) which = g_string_new (NULL);
  JsonNode *straggler_node;
  JsonArray *ranks;
  guint n = G_MAXUINT, n_steady = 0, row = 1;
  gint straggler = -1;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank/rank%u.sqlite.xz", r);
      g_autofree char *db = ws_test_unxz (xz, dir);

      ws_test_rank_sql (db, &sql[r]);
      n = MIN (n, sql[r].n_steps);
    }
  g_assert_cmpuint (n, >, 3);
  warm = g_new0 (gboolean, n);
  for (guint s = 0; s < n; s++)
    for (guint r = 0; r < 4; r++)
      warm[s] = warm[s] || !sql[r].steady[s];
  for (guint s = 0; s < n; s++)
    g_test_message ("step %u: %s", s, warm[s] ? "warm-up" : "steady");

  /* ranks: each rank's steps and the job's carry the same warm-up. */
  {
    const char *args[] = { "ranks", "--format", "json", dir, NULL };
    JsonObject *root;
    JsonArray *steps;

    ranks_json = ws_test_cli_expect (args, 0, NULL);
    json_parser_load_from_data (parser, ranks_json, -1, &error);
    g_assert_no_error (error);
    root = json_node_get_object (json_parser_get_root (parser));
    ranks = json_object_get_array_member (root, "ranks");
    g_assert_cmpuint (json_array_get_length (ranks), ==, 4);
    for (guint r = 0; r < 4; r++)
      {
        JsonArray *per =
          json_object_get_array_member (json_array_get_object_element (ranks, r), "per_step");

        for (guint s = 0; s < json_array_get_length (per); s++)
          {
            JsonObject *o = json_array_get_object_element (per, s);
            guint number = (guint) json_object_get_int_member (o, "step");

            if (number < n)
              g_assert_cmpint (json_object_get_boolean_member (o, "warmup"), ==, warm[number]);
          }
      }
    steps = json_object_get_array_member (root, "steps");
    for (guint i = 0; i < json_array_get_length (steps); i++)
      {
        JsonObject *o = json_array_get_object_element (steps, i);
        guint number = (guint) json_object_get_int_member (o, "step");

        if (number < n)
          g_assert_cmpint (json_object_get_boolean_member (o, "steady"), ==, !warm[number]);
      }
    straggler_node = json_object_get_member (root, "straggler");
    if (!JSON_NODE_HOLDS_NULL (straggler_node))
      straggler = (gint) json_object_get_int_member (json_node_get_object (straggler_node), "rank");
    g_test_message ("ranks names straggler %d", straggler);
  }

  /* steps: by step then rank, the warm-up above, the straggler marked, a
   * median row per rank over its steady steps as SQL finds them. */
  {
    const char *args[] = { "steps", "--format", "csv", dir, NULL };

    csv = ws_test_cli_expect (args, 0, NULL);
    lines = g_strsplit (csv, "\n", -1);
    g_assert_cmpstr (lines[0], ==,
                     "step,rank,name,start_ns,wall_ns,gpu_busy_ns,kernel_ns,memory_ns,idle_ns,"
                     "launches,warmup,straggler");
    for (guint s = 0; s < n; s++)
      for (guint r = 0; r < 4; r++, row++)
        {
          g_auto (GStrv) cells = g_strsplit (lines[row], ",", -1);

          g_assert_cmpuint (g_strv_length (cells), ==, 12);
          g_assert_cmpuint (g_ascii_strtoull (cells[0], NULL, 10), ==, s);
          g_assert_cmpuint (g_ascii_strtoull (cells[1], NULL, 10), ==, r);
          g_assert_cmpint (g_ascii_strtoll (cells[4], NULL, 10), ==, sql[r].wall[s]);
          g_assert_cmpstr (cells[10], ==, warm[s] ? "1" : "0");
          g_assert_cmpstr (cells[11], ==, (gint) r == straggler ? "1" : "0");
        }
    while (lines[row] != NULL && !g_str_has_prefix (lines[row], "median,"))
      row++;
    for (guint r = 0; r < 4; r++, row++)
      {
        g_auto (GStrv) cells = g_strsplit (lines[row], ",", -1);
        g_autofree gint64 *walls = g_new (gint64, sql[r].n_steps);
        guint k = 0;

        for (guint s = 0; s < sql[r].n_steps; s++)
          if (s >= n || !warm[s])
            walls[k++] = sql[r].wall[s];
        g_assert_cmpstr (cells[0], ==, "median");
        g_assert_cmpuint (g_ascii_strtoull (cells[1], NULL, 10), ==, r);
        g_assert_cmpfloat (g_ascii_strtod (cells[4], NULL), ==, ws_test_median_exact (walls, k));
        g_assert_cmpstr (cells[11], ==, (gint) r == straggler ? "1" : "0");
      }
  }

  /* diagnose: the steady state's sentence names the same steps. */
  for (guint s = 0; s < n; s++)
    {
      gboolean opens = !warm[s] && (s == 0 || warm[s - 1]);
      gboolean closes = !warm[s] && (s + 1 == n || warm[s + 1]);

      if (warm[s])
        continue;
      n_steady++;
      if (opens)
        g_string_append_printf (which, "%s%u", which->len > 0 ? ", " : "", s);
      if (closes && !opens)
        g_string_append_printf (which, "–%u", s);
    }
  {
    const char *args[] = { "diagnose", dir, NULL };
    g_autofree char *expect = g_strdup_printf ("Steady state: steps %s of “", which->str);
    g_autofree char *count = g_strdup_printf ("(%u of %u; ", n_steady, n);

    diag = ws_test_cli_expect (args, 0, NULL);
    g_test_message ("%s", diag);
    g_assert_nonnull (strstr (diag, expect));
    g_assert_nonnull (strstr (diag, count));
  }
  for (guint r = 0; r < 4; r++)
    ws_test_rank_sql_clear (&sql[r]);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();

  g_test_add_func ("/cli-steps/gpt2/csv-rows-and-median-equal-sql", test_gpt2_csv);
  g_test_add_func ("/cli-steps/gpt2/json-equals-csv", test_gpt2_json);
  g_test_add_func ("/cli-steps/gpt2/table-and-md-rows-and-median", test_gpt2_table_and_md);
  g_test_add_func ("/cli-steps/ddp/range-names-the-step", test_range);
  g_test_add_func ("/cli-steps/ddp/pid-keeps-one-process", test_pid);
  g_test_add_func ("/cli-steps/render-view-steps", test_render_steps);
  g_test_add_func ("/cli-steps/ddp-job/one-warmup-rule-across-views", test_job_one_warmup);

  status = g_test_run ();
  ws_test_rmtree (tmp);
  if (gpt2_tmp != NULL)
    ws_test_rmtree (gpt2_tmp);
  g_free (tmp);
  g_free (gpt2_tmp);
  g_free (gpt2);
  g_free (rank3);
  return status;
}
