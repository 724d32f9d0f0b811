/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-kernel-instances"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ws-limits.h"
#include "ws-kernel-instances.h"

/**
 * ws_kernel_instances:
 *
 * Returns: (transfer full) (element-type gsize): the indices of the
 * launches of the kernel named @name_id (in @form), in start order.
 */
GArray *
ws_kernel_instances (const WsRun *run, guint32 name_id, WsNameForm form)
{
  GArray *instances = g_array_new (FALSE, FALSE, sizeof (gsize));

  for (gsize i = 0; i < run->kernels.n; i++)
    if (ws_run_kernel_name_id (run, i, form) == name_id)
      g_array_append_val (instances, i);
  return instances;
}

/**
 * ws_kernel_durations:
 *
 * Returns: (transfer full) (array length=n): the durations of @instances, in ns
 */
gint64 *
ws_kernel_durations (const WsRun *run, GArray *instances, gsize *n)
{
  gint64 *durations = g_new (gint64, MAX (instances->len, 1));

  for (guint i = 0; i < instances->len; i++)
    {
      gsize k = g_array_index (instances, gsize, i);

      durations[i] = run->kernels.end[k] - run->kernels.start[k];
    }
  *n = instances->len;
  return durations;
}

static int
compare_uses (gconstpointer a, gconstpointer b)
{
  const WsConfigUse *x = a, *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return (x->config > y->config) - (x->config < y->config);
}

/**
 * ws_kernel_config_uses:
 *
 * The launch configurations of @instances with how often each was used and
 * by how many processes.  Configurations alike (the same grid, block,
 * registers and shared memory) are one, though a job's merged run holds
 * them once per rank.
 *
 * Returns: (transfer full) (element-type WsConfigUse): most used first
 */
GArray *
ws_kernel_config_uses (const WsRun *run, GArray *instances)
{
  GArray *uses = g_array_new (FALSE, TRUE, sizeof (WsConfigUse));
  g_autoptr (GHashTable) slot =
    g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  g_autoptr (GHashTable) seen =
    g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);

  if (run->kernels.config == NULL)
    return uses;
  for (guint i = 0; i < instances->len; i++)
    {
      gsize k = g_array_index (instances, gsize, i);
      guint32 config = run->kernels.config[k];
      const WsLaunchConfig *c = &g_array_index (run->configs, WsLaunchConfig, config);
      GBytes *key = g_bytes_new (c, sizeof (WsLaunchConfig));
      gpointer found = g_hash_table_lookup (slot, key);
      WsConfigUse *use;
      guint32 pid = run->kernels.stream != NULL && run->kernels.stream[k] < run->streams->len
                      ? g_array_index (run->streams, WsStream, run->kernels.stream[k]).pid
                      : 0;
      guint32 pair[2];

      if (found == NULL)
        {
          WsConfigUse fresh = { config, 0, 0, 0 };

          g_array_append_val (uses, fresh);
          found = GUINT_TO_POINTER (uses->len);
          g_hash_table_insert (slot, g_bytes_ref (key), found);
        }
      g_bytes_unref (key);
      use = &g_array_index (uses, WsConfigUse, GPOINTER_TO_UINT (found) - 1);
      use->count++;
      use->total = ws_time_add (use->total, run->kernels.end[k] - run->kernels.start[k]);
      pair[0] = GPOINTER_TO_UINT (found);
      pair[1] = pid;
      if (g_hash_table_add (seen, g_bytes_new (pair, sizeof pair)))
        use->n_processes++;
    }
  g_array_sort (uses, compare_uses);
  return uses;
}

/**
 * ws_histogram_new:
 * @max_bins: the most bins to use
 *
 * Bins @values: √n bins up to @max_bins, equal in duration, or equal in
 * log(duration) when the values span more than two decades (a kernel with
 * a few slow outliers stays readable).
 *
 * Returns: (transfer full): the histogram
 */
WsHistogram *
ws_histogram_new (const gint64 *values, gsize n, guint max_bins)
{
  WsHistogram *self = g_new0 (WsHistogram, 1);
  double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE;

  g_return_val_if_fail (max_bins > 0, self);

  for (gsize i = 0; i < n; i++)
    {
      lo = MIN (lo, (double) values[i]);
      hi = MAX (hi, (double) values[i]);
    }
  if (n == 0)
    lo = hi = 0;

  self->n_bins = n <= 1 || lo == hi ? 1 : CLAMP ((guint) ceil (sqrt ((double) n)), 1, max_bins);
  self->counts = g_new0 (guint, self->n_bins);
  self->log_scale = lo > 0 && hi / lo > 100;
  self->lo = lo;
  self->hi = hi > lo ? hi : lo + 1;

  for (gsize i = 0; i < n; i++)
    {
      double v = (double) values[i];
      double t = self->log_scale ? (log (v) - log (self->lo)) / (log (self->hi) - log (self->lo))
                                 : (v - self->lo) / (self->hi - self->lo);
      guint bin = (guint) CLAMP (floor (t * self->n_bins), 0, self->n_bins - 1);

      self->counts[bin]++;
      self->max_count = MAX (self->max_count, self->counts[bin]);
    }
  return self;
}

void
ws_histogram_free (WsHistogram *self)
{
  if (self == NULL)
    return;
  g_free (self->counts);
  g_free (self);
}
