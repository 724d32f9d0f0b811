/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kern-gb-sum"
#include "config.h"

#include <string.h>

#include "ws-kern-gb-sum.h"

/* What the report groups by: the name, the grid and the block. */
typedef struct
{
  guint32 kernel;
  guint32 grid[3];
  guint32 block[3];
} GbKey;

static guint
gb_key_hash (gconstpointer p)
{
  const GbKey *k = p;
  guint h = k->kernel;

  for (int d = 0; d < 3; d++)
    h = (h * 31u + k->grid[d]) * 31u + k->block[d];
  return h;
}

static gboolean
gb_key_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (GbKey)) == 0;
}

/* The key of kernel @k: a run without launch configurations (a lean load)
 * has grids and blocks of 0. */
static void
key_of (const WsKernelNames *names, gsize k, GbKey *key)
{
  const WsRun *run = names->run;
  const WsLaunchConfig *config = run->kernels.config != NULL ? ws_run_kernel_config (run, k) : NULL;

  memset (key, 0, sizeof *key);
  key->kernel = ws_kernel_names_id (names, k);
  if (config == NULL)
    return;
  memcpy (key->grid, config->grid, sizeof key->grid);
  memcpy (key->block, config->block, sizeof key->block);
}

static int
compare_u32s (const guint32 *a, const guint32 *b, int n)
{
  for (int i = 0; i < n; i++)
    if (a[i] != b[i])
      return a[i] < b[i] ? -1 : 1;
  return 0;
}

/* The report's ORDER BY: total time, largest first, then instances, then
 * the name; rows equal in all three (one name launched with two shapes
 * for the same total) by grid and block, so that the order never depends
 * on the export's row order. */
static gint
compare_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsKernGbRow *x = a, *y = b;
  const WsKernelNames *names = data;
  int c;

  if (x->stats.total != y->stats.total)
    return x->stats.total > y->stats.total ? -1 : 1;
  if (x->stats.count != y->stats.count)
    return x->stats.count < y->stats.count ? -1 : 1;
  c = strcmp (ws_kernel_names_get (names, x->kernel), ws_kernel_names_get (names, y->kernel));
  if (c != 0)
    return c;
  c = compare_u32s (x->grid, y->grid, 3);
  return c != 0 ? c : compare_u32s (x->block, y->block, 3);
}

/* The statistics of each group, whose durations @values holds in slices
 * that @offset bounds, as rows. */
static GArray *
rows_of (const WsKernelNames *names, GArray *keys, gint64 *values, const gsize *offset)
{
  GArray *rows = g_array_sized_new (FALSE, TRUE, sizeof (WsKernGbRow), keys->len);
  gint64 grand = 0;

  for (guint g = 0; g < keys->len; g++)
    {
      const GbKey *key = &g_array_index (keys, GbKey, g);
      WsKernGbRow row = { 0 };

      row.kernel = key->kernel;
      memcpy (row.grid, key->grid, sizeof row.grid);
      memcpy (row.block, key->block, sizeof row.block);
      ws_group_stats (values + offset[g], offset[g + 1] - offset[g], &row.stats);
      if (__builtin_add_overflow (grand, row.stats.total, &grand))
        grand = G_MAXINT64;
      g_array_append_val (rows, row);
    }
  /* As the report's SQL: total * 100.0 / the sum of all totals. */
  for (guint i = 0; i < rows->len; i++)
    {
      WsKernGbRow *row = &g_array_index (rows, WsKernGbRow, i);

      row->percent = grand != 0 ? (double) row->stats.total * 100.0 / (double) grand : 0.0;
    }
  g_array_sort_with_data (rows, compare_rows, (gpointer) names);
  return rows;
}

/**
 * ws_kern_gb_sum:
 * @names: the kernels' names to group by: in a form, or with their NVTX
 *   ranges (`:nvtx-name`)
 *
 * `nsys stats --report cuda_gpu_kern_gb_sum`: the kernels' durations
 * grouped by name, grid and block, with the statistics of
 * cuda_gpu_kern_sum.  The run needs its kernels' launch configurations (a
 * load that is not lean).
 *
 * Returns: (transfer full) (element-type WsKernGbRow): the rows, largest
 * total first
 */
GArray *
ws_kern_gb_sum (const WsKernelNames *names)
{
  const WsRun *run;
  g_autoptr (GHashTable) groups = g_hash_table_new_full (gb_key_hash, gb_key_equal, g_free, NULL);
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (GbKey));
  g_autofree guint32 *group = NULL;
  g_autofree gint64 *values = NULL;
  g_autofree gsize *offset = NULL;
  g_autofree gsize *fill = NULL;
  gsize n;

  g_return_val_if_fail (names != NULL && names->run != NULL, NULL);

  run = names->run;
  n = run->kernels.n;
  group = g_new (guint32, MAX (n, 1));
  values = g_new (gint64, MAX (n, 1));
  for (gsize k = 0; k < n; k++)
    {
      GbKey key;
      gpointer found;

      key_of (names, k, &key);
      found = g_hash_table_lookup (groups, &key);
      if (found == NULL)
        {
          g_array_append_val (keys, key);
          found = GUINT_TO_POINTER (keys->len);
          g_hash_table_insert (groups, g_memdup2 (&key, sizeof key), found);
        }
      group[k] = GPOINTER_TO_UINT (found) - 1;
    }

  /* Each group's durations in its own slice of @values. */
  offset = g_new0 (gsize, keys->len + 1);
  for (gsize k = 0; k < n; k++)
    offset[group[k] + 1]++;
  for (guint g = 0; g < keys->len; g++)
    offset[g + 1] += offset[g];
  fill = g_memdup2 (offset, sizeof (gsize) * (keys->len + 1));
  for (gsize k = 0; k < n; k++)
    values[fill[group[k]]++] = run->kernels.end[k] - run->kernels.start[k];

  return rows_of (names, keys, values, offset);
}
