/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-event-search"
#include "config.h"

#include <string.h>

#include "ws-hash.h"
#include "ws-event-search.h"
#include "ws-sort.h"

struct _WsEventSearch
{
  WsRun *run;
  GPtrArray *folded; /* per string id: the case-folded string, made at the first search */
  guint8 *bits;      /* per string id: whether it matches; NULL when nothing is searched */
  guint len;         /* bytes in @bits */
  /* Counted once, at the first search, so that a keystroke costs a pass
   * over the names, not over the events: */
  guint *named;        /* per string id: the NVTX ranges, marks and API calls so named */
  GArray *pairs;       /* KernelNames: the kernels per (demangled, short) name */
  guint8 *replay_bits; /* per graph replay: whether its name matches; NULL when none does */
};

typedef struct
{
  guint32 demangled;
  guint32 short_name;
  guint count;
} KernelNames;

/**
 * ws_event_search_new:
 *
 * Returns: (transfer full): a search of @run's events, matching nothing yet
 */
WsEventSearch *
ws_event_search_new (WsRun *run)
{
  WsEventSearch *self;

  g_return_val_if_fail (run != NULL, NULL);

  self = g_new0 (WsEventSearch, 1);
  self->run = ws_run_ref (run);
  return self;
}

void
ws_event_search_free (WsEventSearch *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->folded, g_ptr_array_unref);
  g_clear_pointer (&self->pairs, g_array_unref);
  g_free (self->named);
  g_free (self->bits);
  g_free (self->replay_bits);
  ws_run_unref (self->run);
  g_free (self);
}

static inline gboolean
bit (const WsEventSearch *self, guint32 id)
{
  return id != WS_STRING_NONE && id / 8 < self->len && (self->bits[id / 8] >> (id % 8)) & 1;
}

/* Whether @event's name contains the text searched for. */
gboolean
ws_event_search_matches (WsEventSearch *self, WsEventRef event)
{
  const WsRun *run = self->run;

  if (self->bits == NULL || !ws_event_ref_is_valid (run, event))
    return FALSE;
  if (ws_event_ref_kind (event) == WS_EVENT_REPLAY)
    {
      gsize i = ws_event_ref_index (event);

      return self->replay_bits != NULL && (self->replay_bits[i / 8] >> (i % 8)) & 1;
    }
  if (ws_event_ref_kind (event) == WS_EVENT_KERNEL)
    {
      gsize i = ws_event_ref_index (event);

      return bit (self, run->kernels.demangled[i]) ||
             (run->kernels.short_name != NULL && bit (self, run->kernels.short_name[i]));
    }
  return bit (self, ws_event_name_id (run, event, WS_NAME_DEMANGLED));
}

/* How many events carry each name: one pass over the events. */
static void
count_names (WsEventSearch *self, guint n_strings)
{
  const WsRun *run = self->run;
  g_autoptr (GHashTable) index = g_hash_table_new (ws_int64_hash, g_int64_equal);
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (gint64));
  static const WsEventKind named_kinds[] = { WS_EVENT_NVTX, WS_EVENT_MARK, WS_EVENT_API,
                                             WS_EVENT_OSRT, WS_EVENT_SAMPLE };

  self->named = g_new0 (guint, MAX (n_strings, 1));
  for (guint k = 0; k < G_N_ELEMENTS (named_kinds); k++)
    {
      gsize n = named_kinds[k] == WS_EVENT_NVTX   ? run->nvtx.n
                : named_kinds[k] == WS_EVENT_MARK ? run->marks.n
                : named_kinds[k] == WS_EVENT_API  ? run->api.n
                : named_kinds[k] == WS_EVENT_OSRT ? run->osrt.n
                                                  : run->cpu_samples.n;

      for (gsize i = 0; i < n; i++)
        {
          guint32 id = ws_event_name_id (run, ws_event_ref (named_kinds[k], i), WS_NAME_DEMANGLED);

          if (id < n_strings)
            self->named[id]++;
        }
    }

  /* A kernel matches by either name: counted once per pair of names. */
  self->pairs = g_array_new (FALSE, FALSE, sizeof (KernelNames));
  g_array_set_size (keys, run->kernels.n);
  for (gsize i = 0; i < run->kernels.n; i++)
    {
      guint32 demangled =
        run->kernels.demangled != NULL ? run->kernels.demangled[i] : WS_STRING_NONE;
      guint32 short_name =
        run->kernels.short_name != NULL ? run->kernels.short_name[i] : WS_STRING_NONE;
      gint64 *key = &g_array_index (keys, gint64, i);
      gpointer found;

      *key = (gint64) (((guint64) demangled << 32) | short_name);
      found = g_hash_table_lookup (index, key);
      if (found == NULL)
        {
          KernelNames pair = { demangled, short_name, 0 };

          g_array_append_val (self->pairs, pair);
          found = GUINT_TO_POINTER (self->pairs->len);
          g_hash_table_insert (index, key, found);
        }
      g_array_index (self->pairs, KernelNames, GPOINTER_TO_UINT (found) - 1).count++;
    }
}

/* Sets the bit of each replay whose name holds @needle (case-folded).
 * Names differ only by graph, so each graph's is made once. */
static guint
match_replays (WsEventSearch *self, const char *needle)
{
  const WsGraphReplays *g = &self->run->replays;
  g_autoptr (GHashTable) graphs = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint count = 0;

  for (gsize i = 0; i < g->n; i++)
    {
      gpointer key = GUINT_TO_POINTER (g->graph[i] + 1), found;

      if (!g_hash_table_lookup_extended (graphs, key, NULL, &found))
        {
          g_autofree char *name = ws_replay_name (self->run, i);
          g_autofree char *folded = g_utf8_casefold (name, -1);

          found = GINT_TO_POINTER (strstr (folded, needle) != NULL);
          g_hash_table_insert (graphs, key, found);
        }
      if (!GPOINTER_TO_INT (found))
        continue;
      if (self->replay_bits == NULL)
        self->replay_bits = g_new0 (guint8, g->n / 8 + 1);
      self->replay_bits[i / 8] |= 1 << (i % 8);
      count++;
    }
  return count;
}

/**
 * ws_event_search_set_text:
 * @text: (nullable): part of a name, in any case; %NULL or "" ends the search
 *
 * Spaces before and after @text do not count ("k_scale " finds
 * "k_scale_f32", as a pasted name with a trailing space should); only
 * spaces is no search.
 *
 * Returns: how many events match
 */
guint
ws_event_search_set_text (WsEventSearch *self, const char *text)
{
  const WsRun *run = self->run;
  g_autofree char *trimmed = NULL;
  g_autofree char *needle = NULL;
  guint n_strings = ws_string_table_size (run->strings);
  gboolean any = FALSE;
  guint count = 0;

  g_clear_pointer (&self->bits, g_free);
  g_clear_pointer (&self->replay_bits, g_free);
  self->len = 0;
  if (text == NULL)
    return 0;
  trimmed = g_strstrip (g_strdup (text));
  if (trimmed[0] == '\0')
    return 0;

  if (self->folded == NULL)
    {
      self->folded = g_ptr_array_new_full (n_strings, g_free);
      for (guint id = 0; id < n_strings; id++)
        {
          const char *str = ws_string_table_get (run->strings, id);

          g_ptr_array_add (self->folded, str != NULL ? g_utf8_casefold (str, -1) : NULL);
        }
    }
  needle = g_utf8_casefold (trimmed, -1);
  count = match_replays (self, needle);
  self->len = n_strings / 8 + 1;
  self->bits = g_new0 (guint8, self->len);
  for (guint id = 0; id < n_strings; id++)
    {
      const char *str = g_ptr_array_index (self->folded, id);

      if (str != NULL && strstr (str, needle) != NULL)
        {
          self->bits[id / 8] |= 1 << (id % 8);
          any = TRUE;
        }
    }
  if (!any)
    return count;

  if (self->named == NULL)
    count_names (self, n_strings);
  for (guint i = 0; i < self->pairs->len; i++)
    {
      const KernelNames *pair = &g_array_index (self->pairs, KernelNames, i);

      if (bit (self, pair->demangled) || bit (self, pair->short_name))
        count += pair->count;
    }
  for (guint id = 0; id < n_strings; id++)
    if (self->named[id] > 0 && bit (self, id))
      count += self->named[id];
  return count;
}

/**
 * ws_event_search_get_replay_bits:
 *
 * Returns: (transfer none) (nullable): one bit per graph replay, set where
 * its name matches; %NULL when none does
 */
const guint8 *
ws_event_search_get_replay_bits (WsEventSearch *self)
{
  return self->bits != NULL ? self->replay_bits : NULL;
}

/**
 * ws_event_search_get_bits:
 * @len: (out): bytes in the bitset
 *
 * Returns: (transfer none) (nullable): one bit per string id, set where the
 * name matches; %NULL when nothing is searched
 */
const guint8 *
ws_event_search_get_bits (WsEventSearch *self, guint *len)
{
  if (len != NULL)
    *len = self->len;
  return self->bits;
}

/* The first row of a table at or after @time. */
/* Events in order of start, then of table and row: each has one next. */
static int
compare_at (const WsRun *run, WsEventRef a, WsEventRef b)
{
  gint64 sa = ws_event_start (run, a), sb = ws_event_start (run, b);

  if (sa != sb)
    return sa < sb ? -1 : 1;
  return (a > b) - (a < b);
}

/* The nearest match after (or before) @from in one table. */
static WsEventRef
find_in (WsEventSearch *self, WsEventKind kind, const gint64 *start, gsize n, WsEventRef from,
         gboolean backwards)
{
  const WsRun *run = self->run;
  gint64 t = ws_event_start (run, from);
  gsize i = ws_sort_lower_bound (start, 0, n, t);

  if (!backwards)
    {
      for (; i < n; i++)
        {
          WsEventRef event = ws_event_ref (kind, i);

          if (compare_at (run, event, from) > 0 && ws_event_search_matches (self, event))
            return event;
        }
      return WS_EVENT_NONE;
    }
  /* Events starting at t may sort before @from: look from the last of them. */
  while (i < n && start[i] == t)
    i++;
  while (i-- > 0)
    {
      WsEventRef event = ws_event_ref (kind, i);

      if (compare_at (run, event, from) < 0 && ws_event_search_matches (self, event))
        return event;
    }
  return WS_EVENT_NONE;
}

static WsEventRef
nearest (const WsRun *run, const WsEventRef *candidates, guint n, gboolean backwards)
{
  WsEventRef best = WS_EVENT_NONE;

  for (guint k = 0; k < n; k++)
    if (candidates[k] != WS_EVENT_NONE &&
        (best == WS_EVENT_NONE || (backwards ? compare_at (run, candidates[k], best) > 0
                                             : compare_at (run, candidates[k], best) < 0)))
      best = candidates[k];
  return best;
}

static WsEventRef
find_from (WsEventSearch *self, WsEventRef from, gboolean backwards)
{
  const WsRun *run = self->run;
  WsEventRef found[] = {
    find_in (self, WS_EVENT_KERNEL, run->kernels.start, run->kernels.n, from, backwards),
    find_in (self, WS_EVENT_NVTX, run->nvtx.start, run->nvtx.n, from, backwards),
    find_in (self, WS_EVENT_MARK, run->marks.time, run->marks.n, from, backwards),
    find_in (self, WS_EVENT_API, run->api.start, run->api.n, from, backwards),
    find_in (self, WS_EVENT_OSRT, run->osrt.start, run->osrt.n, from, backwards),
    find_in (self, WS_EVENT_SAMPLE, run->cpu_samples.start, run->cpu_samples.n, from, backwards),
    find_in (self, WS_EVENT_REPLAY, run->replays.start, run->replays.n, from, backwards),
  };

  return nearest (run, found, G_N_ELEMENTS (found), backwards);
}

/**
 * ws_event_search_find:
 * @from: where to look from, or WS_EVENT_NONE for the start (or the end)
 * @backwards: the previous match instead of the next
 *
 * Returns: the next (or previous) match in order of start, wrapping around
 * at the end; WS_EVENT_NONE if nothing matches.
 */
WsEventRef
ws_event_search_find (WsEventSearch *self, WsEventRef from, gboolean backwards)
{
  const WsRun *run = self->run;
  WsEventRef found = WS_EVENT_NONE;
  WsEventRef edges[] = {
    run->kernels.n > 0 ? ws_event_ref (WS_EVENT_KERNEL, backwards ? run->kernels.n - 1 : 0)
                       : WS_EVENT_NONE,
    run->nvtx.n > 0 ? ws_event_ref (WS_EVENT_NVTX, backwards ? run->nvtx.n - 1 : 0) : WS_EVENT_NONE,
    run->api.n > 0 ? ws_event_ref (WS_EVENT_API, backwards ? run->api.n - 1 : 0) : WS_EVENT_NONE,
    run->marks.n > 0 ? ws_event_ref (WS_EVENT_MARK, backwards ? run->marks.n - 1 : 0)
                     : WS_EVENT_NONE,
    run->osrt.n > 0 ? ws_event_ref (WS_EVENT_OSRT, backwards ? run->osrt.n - 1 : 0) : WS_EVENT_NONE,
    run->cpu_samples.n > 0 ? ws_event_ref (WS_EVENT_SAMPLE, backwards ? run->cpu_samples.n - 1 : 0)
                           : WS_EVENT_NONE,
    run->replays.n > 0 ? ws_event_ref (WS_EVENT_REPLAY, backwards ? run->replays.n - 1 : 0)
                       : WS_EVENT_NONE,
  };
  WsEventRef edge;

  if (self->bits == NULL)
    return WS_EVENT_NONE;
  if (ws_event_ref_is_valid (run, from))
    found = find_from (self, from, backwards);
  if (found != WS_EVENT_NONE)
    return found;
  /* Wrap around: from the first event of the run (or the last). */
  edge = nearest (run, edges, G_N_ELEMENTS (edges), backwards);
  if (edge == WS_EVENT_NONE)
    return WS_EVENT_NONE;
  return ws_event_search_matches (self, edge) ? edge : find_from (self, edge, backwards);
}
