/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-findings"
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ws-hash.h"
#include "ws-limits.h"
#include "ws-findings-digest.h"
#include "ws-findings-private.h"
#include "ws-format.h"
#include "ws-name-pattern.h"
#include "ws-rank-set.h"
#include "ws-stats.h"

/* Calls closer together than this, under top-level NVTX ranges of the same
 * name, belong to one loop. */
#define LOOP_GAP_NS G_GINT64_CONSTANT (1000000000)

/* NVTX chains are at most this deep (WS_NVTX_MAX_DEPTH + 1 rows). */
#define MAX_CHAIN 257

/* Where in the NVTX tree the findings' events are, merged by range name. */
#define MAX_NVTX_ENTRIES 24

static int
compare_items (gconstpointer a, gconstpointer b)
{
  const WsFindingsItem *x = a, *y = b;

  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return (x->event > y->event) - (x->event < y->event);
}

/* The outermost NVTX range's name pattern (ws_name_pattern()), so that
 * "step 3" and "step 4" are iterations of one loop; 0 outside ranges. */
static guint32
loop_key (WsFindingsCtx *ctx, guint32 thread, gint64 time)
{
  guint32 chain[MAX_CHAIN];
  guint n = ws_run_index_nvtx_at (ctx->index, thread, time, chain, MAX_CHAIN);
  guint32 name;
  gpointer found;

  if (n == 0)
    return 0;
  name = ctx->run->nvtx.name[chain[n - 1]];
  found = g_hash_table_lookup (ctx->loop_keys, GUINT_TO_POINTER (name + 1));
  if (found == NULL)
    {
      char *pattern = ws_name_pattern (ws_run_string (ctx->run, name));

      found = g_hash_table_lookup (ctx->stripped_keys, pattern);
      if (found == NULL)
        {
          found = GUINT_TO_POINTER (g_hash_table_size (ctx->stripped_keys) + 1);
          g_hash_table_insert (ctx->stripped_keys, pattern, found);
        }
      else
        g_free (pattern);
      g_hash_table_insert (ctx->loop_keys, GUINT_TO_POINTER (name + 1), found);
    }
  return GPOINTER_TO_UINT (found);
}

/* Sorts @items by thread and time and cuts them into loops: a new loop
 * starts after a pause of LOOP_GAP_NS or where the top-level NVTX range
 * changes its name.  Returns (transfer full) an array of WsFindingsGroup. */
GArray *
ws_findings_group (WsFindingsCtx *ctx, GArray *items)
{
  GArray *groups = g_array_new (FALSE, FALSE, sizeof (WsFindingsGroup));
  g_autofree guint32 *keys = g_new (guint32, MAX (items->len, 1));
  WsFindingsGroup group = { 0 };

  g_array_sort (items, compare_items);
  for (guint i = 0; i < items->len; i++)
    {
      const WsFindingsItem *item = &g_array_index (items, WsFindingsItem, i);

      keys[i] = item->thread == G_MAXUINT32 ? 0 : loop_key (ctx, item->thread, item->start);
    }

  for (guint i = 0; i < items->len; i++)
    {
      const WsFindingsItem *item = &g_array_index (items, WsFindingsItem, i);
      gboolean joins = group.n > 0 && item->thread == group.thread &&
                       keys[i] == keys[group.first] && item->start - group.end < LOOP_GAP_NS;

      if (!joins)
        {
          if (group.n > 0)
            g_array_append_val (groups, group);
          group.first = i;
          group.n = 0;
          group.thread = item->thread;
          group.start = item->start;
          group.end = item->end;
        }
      group.n++;
      group.end = MAX (group.end, item->end);
    }
  if (group.n > 0)
    g_array_append_val (groups, group);
  return groups;
}

/* A range of the NVTX tree, merged over its instances: ranges of one
 * pattern ("iter N") under the same entry are one entry, so that what
 * happens inside "iter 0" … "iter 24999" is counted under "iter N". */
typedef struct
{
  WsFindingNvtx *nvtx;
  gint parent; /* entry index, -1 for an outermost range */
  guint own;   /* events whose innermost range this is */
} WsNvtxEntry;

WsNvtxCollector *
ws_nvtx_collector_new (WsFindingsCtx *ctx)
{
  WsNvtxCollector *self = g_new0 (WsNvtxCollector, 1);

  self->ctx = ctx;
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->patterns = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  self->list = g_array_new (FALSE, FALSE, sizeof (WsNvtxEntry));
  return self;
}

static void
nvtx_free (WsFindingNvtx *nvtx)
{
  g_free (nvtx->name);
  g_free (nvtx->domain);
  g_free (nvtx);
}

void
ws_nvtx_collector_free (WsNvtxCollector *self)
{
  for (guint i = 0; i < self->list->len; i++)
    {
      WsNvtxEntry *entry = &g_array_index (self->list, WsNvtxEntry, i);

      if (entry->nvtx != NULL)
        nvtx_free (entry->nvtx);
    }
  g_array_unref (self->list);
  g_hash_table_unref (self->entries);
  g_hash_table_unref (self->seen);
  g_hash_table_unref (self->patterns);
  g_free (self);
}

static const char *
pattern_of (WsNvtxCollector *self, guint32 name)
{
  char *pattern = g_hash_table_lookup (self->patterns, GUINT_TO_POINTER (name + 1));

  if (pattern == NULL)
    {
      pattern = ws_name_pattern (ws_run_string (self->ctx->run, name));
      g_hash_table_insert (self->patterns, GUINT_TO_POINTER (name + 1), pattern);
    }
  return pattern;
}

/* The entry of @range under @parent, made where it is new. */
static guint
entry_of (WsNvtxCollector *self, gint parent, guint32 range)
{
  const WsRun *run = self->ctx->run;
  const char *pattern = pattern_of (self, run->nvtx.name[range]);
  g_autofree char *key =
    g_strdup_printf ("%d\x1f%u\x1f%s", parent, (guint) run->nvtx.domain[range], pattern);
  gpointer found = g_hash_table_lookup (self->entries, key);
  WsNvtxEntry entry = { 0 };

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  entry.nvtx = g_new0 (WsFindingNvtx, 1);
  entry.nvtx->name = g_strdup (pattern);
  entry.nvtx->domain = g_strdup (ws_run_nvtx_domain_name (run, run->nvtx.domain[range]));
  entry.nvtx->depth =
    parent < 0 ? 0 : g_array_index (self->list, WsNvtxEntry, parent).nvtx->depth + 1;
  entry.nvtx->start = G_MAXINT64;
  entry.nvtx->end = G_MININT64;
  entry.parent = parent;
  g_array_append_val (self->list, entry);
  g_hash_table_insert (self->entries, g_steal_pointer (&key), GUINT_TO_POINTER (self->list->len));
  return self->list->len - 1;
}

/* Counts an event of @duration ns at @time on @thread in every NVTX range
 * that encloses it, each under the ranges that enclose it. */
void
ws_nvtx_collector_add (WsNvtxCollector *self, guint32 thread, gint64 time, gint64 duration)
{
  const WsRun *run = self->ctx->run;
  guint32 chain[MAX_CHAIN];
  guint n = 0;
  gint parent = -1;

  if (thread != G_MAXUINT32)
    n = ws_run_index_nvtx_at (self->ctx->index, thread, time, chain, MAX_CHAIN);
  if (n == 0)
    {
      self->outside++;
      return;
    }
  /* The chain is innermost first. */
  for (guint c = n; c-- > 0;)
    {
      guint32 range = chain[c];
      guint index = entry_of (self, parent, range);
      WsNvtxEntry *entry = &g_array_index (self->list, WsNvtxEntry, index);
      WsFindingNvtx *nvtx = entry->nvtx;

      nvtx->events++;
      nvtx->event_time = ws_time_add (nvtx->event_time, duration);
      if (c == 0)
        entry->own++;
      if (g_hash_table_insert (self->seen, GUINT_TO_POINTER (range + 1),
                               GUINT_TO_POINTER (index + 1)))
        {
          nvtx->instances++;
          nvtx->start = MIN (nvtx->start, run->nvtx.start[range]);
          nvtx->end = MAX (nvtx->end, run->nvtx.end[range]);
        }
      parent = (gint) index;
    }
}

/* “iter N” › “layer.mlp”: the innermost range that holds the most events
 * (each event counted in the innermost range around it), with the ranges
 * around it; a phrase saying so when most are in no range. */
char *
ws_nvtx_collector_place (WsNvtxCollector *self)
{
  gint best = -1;
  guint most = self->outside;
  GString *out;

  for (guint i = 0; i < self->list->len; i++)
    {
      const WsNvtxEntry *entry = &g_array_index (self->list, WsNvtxEntry, i);

      if (entry->own > most)
        {
          most = entry->own;
          best = (gint) i;
        }
    }
  if (best < 0)
    return g_strdup (_ ("code outside NVTX ranges"));
  out = g_string_new (NULL);
  for (gint i = best; i >= 0; i = g_array_index (self->list, WsNvtxEntry, i).parent)
    {
      g_autofree char *quoted =
        g_strdup_printf ("“%s”", g_array_index (self->list, WsNvtxEntry, i).nvtx->name);

      g_string_prepend (out, quoted);
      if (g_array_index (self->list, WsNvtxEntry, i).parent >= 0)
        g_string_prepend (out, " › ");
    }
  return g_string_free (out, FALSE);
}

/* Entries with more events first; an entry holds at least the events of
 * those inside it, and comes before them on a tie. */
static int
compare_entries_by_events (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsNvtxEntry *list = data;
  const WsNvtxEntry *x = &list[*(const guint *) a], *y = &list[*(const guint *) b];

  if (x->nvtx->events != y->nvtx->events)
    return x->nvtx->events > y->nvtx->events ? -1 : 1;
  if (x->nvtx->depth != y->nvtx->depth)
    return x->nvtx->depth < y->nvtx->depth ? -1 : 1;
  return (x->nvtx->start > y->nvtx->start) - (x->nvtx->start < y->nvtx->start);
}

/* Appends the kept entries under @parent, by start, each before those
 * inside it. */
static void
append_tree (WsNvtxCollector *self, const gboolean *kept, gint parent, WsFinding *finding)
{
  g_autoptr (GArray) children = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < self->list->len; i++)
    if (kept[i] && g_array_index (self->list, WsNvtxEntry, i).parent == parent)
      {
        guint at = children->len;

        while (at > 0 &&
               g_array_index (self->list, WsNvtxEntry, g_array_index (children, guint, at - 1))
                   .nvtx->start > g_array_index (self->list, WsNvtxEntry, i).nvtx->start)
          at--;
        g_array_insert_val (children, at, i);
      }
  for (guint c = 0; c < children->len; c++)
    {
      guint i = g_array_index (children, guint, c);
      WsNvtxEntry *entry = &g_array_index (self->list, WsNvtxEntry, i);

      g_ptr_array_add (finding->nvtx, entry->nvtx);
      entry->nvtx = NULL;
      append_tree (self, kept, (gint) i, finding);
    }
}

/* Hands the ranges with the most events to @finding, in tree order: by
 * start, a range before those inside it, each under the range that holds
 * it.  An entry kept keeps the entries around it (they hold at least its
 * events, and sort first). */
void
ws_nvtx_collector_finish (WsNvtxCollector *self, WsFinding *finding)
{
  g_autoptr (GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint), self->list->len);
  g_autofree gboolean *kept = g_new0 (gboolean, MAX (self->list->len, 1));

  for (guint i = 0; i < self->list->len; i++)
    g_array_append_val (order, i);
  g_array_sort_with_data (order, compare_entries_by_events, self->list->data);
  for (guint i = 0; i < order->len && i < MAX_NVTX_ENTRIES; i++)
    kept[g_array_index (order, guint, i)] = TRUE;
  append_tree (self, kept, -1, finding);
}

/* “NAME”, the outermost NVTX range around @time on @thread, or a phrase
 * saying there is none. */
char *
ws_findings_place (WsFindingsCtx *ctx, guint32 thread, gint64 time)
{
  guint32 chain[MAX_CHAIN];
  guint n =
    thread == G_MAXUINT32 ? 0 : ws_run_index_nvtx_at (ctx->index, thread, time, chain, MAX_CHAIN);

  g_autofree char *pattern = NULL;

  if (n == 0)
    return g_strdup (_ ("code outside NVTX ranges"));
  pattern = ws_name_pattern (ws_run_string (ctx->run, ctx->run->nvtx.name[chain[n - 1]]));
  return g_strdup_printf ("“%s”", pattern);
}

char *
ws_findings_count_string (double value)
{
  GString *out = g_string_new (NULL);

  ws_format_fixed (out, value, 0, TRUE);
  return g_string_free (out, FALSE);
}

char *
ws_findings_percent_string (double value)
{
  g_autofree char *num = ws_format_fixed_string (value, 1);

  return g_strdup_printf ("%s%%", num);
}

/* A name counted in a names table, with the order it first came in, so
 * that equal counts keep that order (cudaMalloc before cudaFree). */
typedef struct
{
  guint count;
  guint order;
} NameCount;

static int
compare_names (gconstpointer a, gconstpointer b, gpointer data)
{
  GHashTable *names = data;
  const char *x = *(const char *const *) a, *y = *(const char *const *) b;
  const NameCount *vx = g_hash_table_lookup (names, x);
  const NameCount *vy = g_hash_table_lookup (names, y);

  if (vx->count != vy->count)
    return vx->count > vy->count ? -1 : 1;
  return (vx->order > vy->order) - (vx->order < vy->order);
}

/* Returns (transfer full): a table of name → count for ws_findings_count_name(). */
GHashTable *
ws_findings_names_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static guint
name_count (GHashTable *names, const char *name)
{
  const NameCount *value = g_hash_table_lookup (names, name);

  return value != NULL ? value->count : 0;
}

/* The names counted in @names, most frequent first. */
static GPtrArray *
names_by_count (GHashTable *names)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, names);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort_with_data (keys, compare_names, names);
  return keys;
}

/* "20 cudaMalloc, 20 cudaFree". */
char *
ws_findings_names_string (GHashTable *names)
{
  g_autoptr (GPtrArray) keys = names_by_count (names);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < keys->len; i++)
    {
      g_autofree char *count = ws_findings_count_string (name_count (names, keys->pdata[i]));

      g_string_append_printf (out, "%s%s %s", i > 0 ? ", " : "", count,
                              (const char *) keys->pdata[i]);
    }
  return g_string_free (out, FALSE);
}

/* One evidence per name, keyed by the name itself ("cudaMalloc": 20). */
void
ws_findings_add_name_evidence (WsFinding *finding, GHashTable *names)
{
  g_autoptr (GPtrArray) keys = names_by_count (names);

  for (guint i = 0; i < keys->len; i++)
    ws_finding_add_evidence (finding, keys->pdata[i], keys->pdata[i], WS_UNIT_COUNT,
                             name_count (names, keys->pdata[i]));
}

void
ws_findings_count_name (GHashTable *names, const char *name)
{
  NameCount *value = g_hash_table_lookup (names, name);

  if (value == NULL)
    {
      value = g_new0 (NameCount, 1);
      value->order = g_hash_table_size (names);
      g_hash_table_insert (names, g_strdup (name), value);
    }
  value->count++;
}

gint64
ws_findings_median (GArray *values)
{
  WsGroupStats stats;

  if (values->len == 0)
    return 0;
  ws_group_stats ((gint64 *) (gpointer) values->data, values->len, &stats);
  return (gint64) llround (stats.med);
}

void
ws_findings_add_api (WsFinding *finding, gssize api)
{
  guint32 index = (guint32) api;

  if (api >= 0)
    g_array_append_val (finding->api, index);
}

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

static void
sort_unique (GArray *indices)
{
  guint out = 0;

  g_array_sort (indices, compare_u32);
  for (guint i = 0; i < indices->len; i++)
    if (out == 0 ||
        g_array_index (indices, guint32, i) != g_array_index (indices, guint32, out - 1))
      g_array_index (indices, guint32, out++) = g_array_index (indices, guint32, i);
  g_array_set_size (indices, out);
}

static int
compare_findings (gconstpointer a, gconstpointer b)
{
  const WsFinding *x = *(WsFinding *const *) a;
  const WsFinding *y = *(WsFinding *const *) b;

  if (x->severity != y->severity)
    return x->severity > y->severity ? -1 : 1;
  if (x->cost != y->cost)
    return x->cost > y->cost ? -1 : 1;
  return g_strcmp0 (x->id, y->id);
}

/* Most severe first; among equals, the one with more time at stake. */
void
ws_findings_sort (GPtrArray *findings)
{
  g_ptr_array_sort (findings, compare_findings);
}

/**
 * ws_findings_compute:
 *
 * Runs every check on @run.  Checks that do not apply raise nothing, so a
 * run without these problems gives an empty array.
 *
 * Returns: (transfer full) (element-type WsFinding): the findings, most
 * severe first
 */
GPtrArray *
ws_findings_compute (const WsRun *run)
{
  return ws_findings_compute_cancellable (run, NULL, NULL);
}

/**
 * ws_findings_compute_cancellable:
 *
 * ws_findings_compute(), stopping soon after @cancellable is cancelled:
 * before each check and every 2^16 events within one.
 *
 * Returns: (transfer full) (element-type WsFinding) (nullable): the
 * findings, most severe first; %NULL with @error set when cancelled
 */
GPtrArray *
ws_findings_compute_cancellable (const WsRun *run, GCancellable *cancellable, GError **error)
{
  static void (*const checks[]) (WsFindingsCtx *, GPtrArray *) = {
    ws_findings_check_alloc,         ws_findings_check_transfers, ws_findings_check_sync,
    ws_findings_check_launch,        ws_findings_check_imbalance, ws_findings_check_idle,
    ws_findings_check_memory_access, ws_findings_check_summaries, ws_findings_check_recapture,
    ws_findings_check_replay_gaps,
  };
  g_autoptr (GPtrArray) findings =
    g_ptr_array_new_with_free_func ((GDestroyNotify) ws_finding_unref);
  WsFindingsCtx ctx = { 0 };
  gboolean cancelled = FALSE;

  g_return_val_if_fail (run != NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  /* A digest has no events: its ranks' findings were computed from their
   * exports when it was made. */
  if (run->digest != NULL)
    return ws_findings_merge_digest (run);
  ctx.run = run;
  ctx.cancellable = cancellable;
  ctx.index = ws_run_index_new (run);
  ctx.loop_keys = g_hash_table_new (g_direct_hash, g_direct_equal);
  ctx.stripped_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint c = 0; c < G_N_ELEMENTS (checks) && !cancelled; c++)
    {
      cancelled = g_cancellable_is_cancelled (cancellable);
      if (!cancelled)
        checks[c](&ctx, findings);
    }
  cancelled = cancelled || g_cancellable_is_cancelled (cancellable);
  if (!cancelled)
    ws_rank_set_add_findings (run, findings);

  for (guint i = 0; i < findings->len && !cancelled; i++)
    {
      WsFinding *finding = g_ptr_array_index (findings, i);

      sort_unique (finding->kernels);
      sort_unique (finding->memops);
      sort_unique (finding->api);
    }
  if (!cancelled)
    ws_findings_sort (findings);

  g_hash_table_unref (ctx.loop_keys);
  g_hash_table_unref (ctx.stripped_keys);
  ws_run_index_free (ctx.index);
  if (cancelled)
    {
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  return g_steal_pointer (&findings);
}

static void
compute_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  GPtrArray *findings = ws_findings_compute_cancellable (task_data, cancellable, &error);

  if (findings == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, findings, (GDestroyNotify) g_ptr_array_unref);
}

/* ws_findings_compute() on a worker thread; the run is kept alive until
 * it is done.  Cancelled, the worker stops within a check's 2^16 events
 * and the callback comes then, with G_IO_ERROR_CANCELLED: once it has come,
 * the worker no longer reads the run. */
void
ws_findings_compute_async (WsRun *run, GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_return_if_fail (run != NULL);

  g_task_set_source_tag (task, ws_findings_compute_async);
  g_task_set_task_data (task, ws_run_ref (run), (GDestroyNotify) ws_run_unref);
  g_task_run_in_thread (task, compute_thread);
}

/**
 * ws_findings_compute_finish:
 *
 * Returns: (transfer full) (element-type WsFinding): the findings, or %NULL
 * with @error set when cancelled
 */
GPtrArray *
ws_findings_compute_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == ws_findings_compute_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * ws_findings_find:
 *
 * Returns: (transfer none) (nullable): the finding of @id
 */
WsFinding *
ws_findings_find (GPtrArray *findings, const char *id)
{
  g_return_val_if_fail (findings != NULL, NULL);

  for (guint i = 0; i < findings->len; i++)
    {
      WsFinding *finding = g_ptr_array_index (findings, i);

      if (g_strcmp0 (finding->id, id) == 0)
        return finding;
    }
  return NULL;
}
