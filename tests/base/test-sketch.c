/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <glib/gstdio.h>

#include "ws-sketch.h"
#include "ws-test-util.h"

/* The medians a digest gives for a job's kernels are read from merged
 * sketches: checked here against the exact median of the union of the
 * four DDP ranks' kernel durations, which the test reads with its own SQL
 * and sorts itself. */

static char *tmp;
static char *rank_files[4];

static int
compare_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The median nsys stats prints: the middle value of the sorted values, or
 * the mean of the two middle ones. */
static double
exact_median (GArray *values)
{
  gint64 *v = (gint64 *) (gpointer) values->data;
  guint n = values->len;

  qsort (v, n, sizeof (gint64), compare_i64);
  return n % 2 == 1 ? (double) v[n / 2] : ((double) v[n / 2 - 1] + (double) v[n / 2]) / 2.0;
}

/* Per kernel name, the durations of @db's kernels: (name → GArray of gint64). */
static GHashTable *
durations_by_name (const char *db)
{
  GHashTable *by_name =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  sqlite3 *conn = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (db, &conn, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (conn,
                                       "SELECT s.value, k.end - k.start "
                                       "FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                       "JOIN StringIds s ON s.id = k.demangledName",
                                       -1, &stmt, NULL),
                   ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (stmt, 0);
      gint64 duration = sqlite3_column_int64 (stmt, 1);
      GArray *values = g_hash_table_lookup (by_name, name);

      if (values == NULL)
        {
          values = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_hash_table_insert (by_name, g_strdup (name), values);
        }
      g_array_append_val (values, duration);
    }
  sqlite3_finalize (stmt);
  sqlite3_close (conn);
  return by_name;
}

static void
test_exact_small (void)
{
  /* By hand: sorted, 1 2 3 4 5 6 7 8 9 10 10; eleven values, the sixth is 6. */
  gint64 values[] = { 10, 3, 1, 7, 2, 9, 5, 4, 10, 8, 6 };
  g_autoptr (WsSketch) sketch = ws_sketch_new_from_values (values, G_N_ELEMENTS (values));
  g_autoptr (WsSketch) other = NULL;
  gint64 more[] = { 100 };

  g_assert_true (ws_sketch_is_exact (sketch));
  g_assert_cmpfloat (ws_sketch_median (sketch), ==, 6);
  g_assert_cmpfloat (ws_sketch_value_at (sketch, 0), ==, 1);
  g_assert_cmpfloat (ws_sketch_value_at (sketch, 10), ==, 10);

  /* Twelve values: the mean of the sixth and seventh, (6 + 7) / 2. */
  other = ws_sketch_new_from_values (more, 1);
  ws_sketch_merge (sketch, other);
  g_assert_true (ws_sketch_is_exact (sketch));
  g_assert_cmpuint (ws_sketch_count (sketch), ==, 12);
  g_assert_cmpfloat (ws_sketch_median (sketch), ==, 6.5);
}

static void
test_relative_error (void)
{
  /* 10,000 values spread over three decades: every quantile of the
   * buckets is within 0.5% of the value of that rank. */
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (WsSketch) sketch = NULL;
  g_autoptr (GArray) copy = NULL;
  guint32 seed = 12345;

  for (guint i = 0; i < 10000; i++)
    {
      gint64 v;

      seed = seed * 1103515245u + 12345u;
      v = 1000 + (gint64) ((seed >> 8) % 1000000);
      g_array_append_val (values, v);
    }
  copy = g_array_copy (values);
  sketch = ws_sketch_new_from_values ((gint64 *) (gpointer) copy->data, copy->len);
  g_assert_false (ws_sketch_is_exact (sketch));
  g_array_sort (values, compare_i64);
  for (guint rank = 0; rank < values->len; rank += 97)
    {
      double truth = (double) g_array_index (values, gint64, rank);
      double got = ws_sketch_value_at (sketch, rank);

      g_assert_cmpfloat (fabs (got - truth), <=, WS_SKETCH_ALPHA * truth + 1e-9);
    }
}

static void
test_ddp_merged_medians (void)
{
  g_autoptr (GHashTable) union_values =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  g_autoptr (GHashTable) merged =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) ws_sketch_free);
  GHashTableIter iter;
  gpointer key, value;
  guint inexact = 0, rows = 0;

  for (guint r = 0; r < 4; r++)
    {
      g_autoptr (GHashTable) by_name = durations_by_name (rank_files[r]);

      g_hash_table_iter_init (&iter, by_name);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          GArray *values = value;
          GArray *all = g_hash_table_lookup (union_values, key);
          g_autoptr (GArray) copy = g_array_copy (values);
          g_autoptr (WsSketch) one =
            ws_sketch_new_from_values ((gint64 *) (gpointer) copy->data, copy->len);
          WsSketch *sum = g_hash_table_lookup (merged, key);
          g_autofree guint8 *bytes_copy = NULL;
          g_autoptr (GBytes) bytes = ws_sketch_serialize (one);
          g_autoptr (WsSketch) back = NULL;
          gsize len;

          /* Each rank's sketch goes through its serialised form, as in a digest. */
          bytes_copy = g_bytes_unref_to_data (g_steal_pointer (&bytes), &len);
          back = ws_sketch_deserialize (bytes_copy, len);
          g_assert_nonnull (back);
          g_assert_cmpuint (ws_sketch_count (back), ==, values->len);
          if (all == NULL)
            {
              all = g_array_new (FALSE, FALSE, sizeof (gint64));
              g_hash_table_insert (union_values, g_strdup (key), all);
            }
          g_array_append_vals (all, values->data, values->len);
          if (sum == NULL)
            g_hash_table_insert (merged, g_strdup (key), g_steal_pointer (&back));
          else
            ws_sketch_merge (sum, back);
        }
    }

  g_hash_table_iter_init (&iter, union_values);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      WsSketch *sketch = g_hash_table_lookup (merged, key);
      double truth = exact_median (value);
      double got = ws_sketch_median (sketch);

      rows++;
      g_assert_cmpuint (ws_sketch_count (sketch), ==, ((GArray *) value)->len);
      if (ws_sketch_is_exact (sketch))
        g_assert_cmpfloat (got, ==, truth);
      else
        {
          inexact++;
          g_assert_cmpfloat (fabs (got - truth), <=, WS_SKETCH_ALPHA * truth + 1e-9);
        }
    }
  /* Both paths were taken: rows of a few launches and rows of hundreds. */
  g_assert_cmpuint (rows, >=, 20);
  g_assert_cmpuint (inexact, >, 0);
  g_assert_cmpuint (inexact, <, rows);
}

static void
test_collapse (void)
{
  /* Values from 1 ns to 10^12 ns: more buckets than kept; the lowest fold
   * together.  Most values lie between 10^11 and 2·10^11 ns, so the median
   * is above the folded ones and keeps its bound. */
  g_autoptr (GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (WsSketch) sketch = NULL;
  g_autoptr (GArray) copy = NULL;
  double truth, got;

  for (gint64 v = 1; v < 1000000000000; v = v * 101 / 100 + 1)
    g_array_append_val (values, v);
  for (gint64 i = 0; i < 4000; i++)
    {
      gint64 v = 100000000000 + i * 25000000;

      g_array_append_val (values, v);
    }
  copy = g_array_copy (values);
  sketch = ws_sketch_new_from_values ((gint64 *) (gpointer) copy->data, copy->len);
  g_assert_cmpuint (ws_sketch_n_buckets (sketch), ==, WS_SKETCH_MAX_BUCKETS);
  truth = exact_median (values);
  got = ws_sketch_median (sketch);
  g_assert_cmpfloat (fabs (got - truth), <=, WS_SKETCH_ALPHA * truth);
  g_assert_cmpfloat (ws_sketch_value_at (sketch, 0), ==, 1);
}

static void
test_serialize_rejects_damage (void)
{
  gint64 values[200];
  g_autoptr (WsSketch) sketch = NULL;
  g_autoptr (GBytes) bytes = NULL;
  const guint8 *data;
  gsize len;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = 1000 + i * i;
  sketch = ws_sketch_new_from_values (values, G_N_ELEMENTS (values));
  bytes = ws_sketch_serialize (sketch);
  data = g_bytes_get_data (bytes, &len);
  /* Every cut is refused, never read past. */
  for (gsize cut = 0; cut < len; cut++)
    g_assert_null (ws_sketch_deserialize (data, cut));
  {
    g_autofree guint8 *bad = g_memdup2 (data, len);

    bad[0] = 7; /* an unknown version */
    g_assert_null (ws_sketch_deserialize (bad, len));
  }
  {
    g_autoptr (WsSketch) back = ws_sketch_deserialize (data, len);

    g_assert_nonnull (back);
    g_assert_cmpfloat (ws_sketch_median (back), ==, ws_sketch_median (sketch));
  }
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = ws_test_tmpdir ();
  for (guint r = 0; r < 4; r++)
    {
      g_autofree char *xz = g_strdup_printf ("multirank/rank%u.sqlite.xz", r);

      rank_files[r] = ws_test_unxz (xz, tmp);
    }
  g_test_add_func ("/sketch/exact/small-counts", test_exact_small);
  g_test_add_func ("/sketch/buckets/relative-error", test_relative_error);
  g_test_add_func ("/sketch/merge/ddp-medians-against-sql", test_ddp_merged_medians);
  g_test_add_func ("/sketch/buckets/collapse-lowest", test_collapse);
  g_test_add_func ("/sketch/serialize/rejects-damage", test_serialize_rejects_damage);
  status = g_test_run ();
  for (guint r = 0; r < 4; r++)
    g_free (rank_files[r]);
  ws_test_rmtree (tmp);
  g_free (tmp);
  return status;
}
