/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ncu-kernels"
#include "config.h"

#include <stdio.h>

#include "ws-hash.h"
#include "ws-ncu-kernels.h"
#include "ws-ncu-results.h"

/* "(128, 1, 9)" → 128, 1, 9; FALSE when it does not read. */
static gboolean
parse_dim (const char *text, guint32 dim[3])
{
  unsigned x, y, z;

  if (text == NULL || sscanf (text, " (%u , %u , %u )", &x, &y, &z) != 3)
    return FALSE;
  dim[0] = x;
  dim[1] = y;
  dim[2] = z;
  return TRUE;
}

static char *
launch_key (const char *name, const guint32 grid[3], const guint32 block[3])
{
  return g_strdup_printf ("%s\x1f%u,%u,%u\x1f%u,%u,%u", name, grid[0], grid[1], grid[2], block[0],
                          block[1], block[2]);
}

/**
 * ws_ncu_kernel_launches:
 *
 * For each kernel of the nsys run, the ncu launch that stands for it: the
 * longest profiled launch matched to the same kernel name with the same
 * grid and block.
 *
 * Returns: (transfer full): one entry per kernel, -1 where none
 */
gint32 *
ws_ncu_kernel_launches (const WsRun *run)
{
  const WsNcuResults *ncu = run->ncu;
  gsize n = run->kernels.n;
  gint32 *launches = g_new (gint32, MAX (n, 1));
  g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) by_kernel =
    g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  guint n_launches = ncu != NULL ? ws_ncu_results_n_launches (ncu) : 0;

  for (gsize k = 0; k < n; k++)
    launches[k] = -1;
  if (ncu == NULL || ncu->match == NULL || run->kernels.demangled == NULL ||
      run->kernels.config == NULL)
    return launches;

  for (guint i = 0; i < n_launches; i++)
    {
      const WsNcuLaunch *l = ws_ncu_results_launch (ncu, i);
      const char *name = ncu->match[i].nsys_name;
      const WsGauge *d = &ws_ncu_results_gauges (ncu, i)->gauge[WS_GAUGE_DURATION];
      guint32 grid[3], block[3];
      g_autofree char *key = NULL;
      gpointer old;

      if (name == NULL || !parse_dim (l->grid, grid) || !parse_dim (l->block, block))
        continue;
      key = launch_key (name, grid, block);
      old = g_hash_table_lookup (by_key, key);
      /* The longest launch stands for its kernel and configuration. */
      if (old != NULL)
        {
          const WsGauge *od =
            &ws_ncu_results_gauges (ncu, GPOINTER_TO_UINT (old) - 1)->gauge[WS_GAUGE_DURATION];

          if (!d->collected || (od->collected && od->value >= d->value))
            continue;
        }
      g_hash_table_insert (by_key, g_steal_pointer (&key), GUINT_TO_POINTER (i + 1));
    }

  /* Distinct (name, configuration) pairs are few: look each up once. */
  for (gsize k = 0; k < n; k++)
    {
      gint64 pair = ((gint64) run->kernels.demangled[k] << 32) | run->kernels.config[k];
      gpointer found;

      if (!g_hash_table_lookup_extended (by_kernel, &pair, NULL, &found))
        {
          const WsLaunchConfig *c = ws_run_kernel_config (run, k);
          g_autofree char *key =
            c != NULL
              ? launch_key (ws_run_string (run, run->kernels.demangled[k]), c->grid, c->block)
              : NULL;

          found = key != NULL ? g_hash_table_lookup (by_key, key) : NULL;
          g_hash_table_insert (by_kernel, g_memdup2 (&pair, sizeof pair), found);
        }
      launches[k] = found != NULL ? (gint32) GPOINTER_TO_UINT (found) - 1 : -1;
    }
  return launches;
}
