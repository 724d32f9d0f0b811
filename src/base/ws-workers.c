/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-workers"
#include "config.h"

#include "ws-workers.h"

/* The process's budget of worker threads, shared by every parallel read
 * (an export's tables, a trace's events): a job that loads several ranks
 * at once already uses the cores, and each read gets fewer workers. */
static gint workers_busy;

/**
 * ws_workers_forced:
 *
 * WARPSCOPE_THREADS=N: N workers for every read big enough for N, on any
 * machine (benchmarks; tests, on small files).
 *
 * Returns: whether the environment sets the count, in @n
 */
gboolean
ws_workers_forced (guint *n)
{
  const char *env = g_getenv ("WARPSCOPE_THREADS");
  guint64 v;

  if (env == NULL || !g_ascii_string_to_unsigned (env, 10, 1, WS_WORKERS_MAX, &v, NULL))
    return FALSE;
  *n = (guint) v;
  return TRUE;
}

/* The workers a read may use: WARPSCOPE_THREADS, else the cores, at most
 * WS_WORKERS_MAX. */
guint
ws_workers_cores (void)
{
  guint n;

  if (ws_workers_forced (&n))
    return n;
  return MIN (MAX (g_get_num_processors (), 1u), WS_WORKERS_MAX);
}

/**
 * ws_workers_take:
 *
 * Takes up to @want workers of the budget, at least 1, whatever is busy.
 * Give them back with ws_workers_give().
 *
 * Returns: the workers taken
 */
guint
ws_workers_take (guint want)
{
  guint forced;
  gint cores =
    ws_workers_forced (&forced) ? (gint) forced : (gint) MAX (g_get_num_processors (), 1u);

  for (;;)
    {
      gint busy = g_atomic_int_get (&workers_busy);
      gint take = CLAMP (cores - busy, 1, (gint) MAX (want, 1u));

      if (g_atomic_int_compare_and_exchange (&workers_busy, busy, busy + take))
        return (guint) take;
    }
}

void
ws_workers_give (guint n)
{
  g_atomic_int_add (&workers_busy, -(gint) n);
}
