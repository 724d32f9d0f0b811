/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nsys"
#include "config.h"

#include "ws-hash.h"
#include "ws-cpu-profile.h"
#include "ws-limits.h"
#include "ws-nsys-reader-private.h"
#include "ws-reader-error.h"
#include "ws-run-build.h"
#include "ws-sqlite.h"

/* nsys's CPU sampling (`--sample=process-tree`, `--sample=cpu`): one
 * COMPOSITE_EVENTS row per sample (time, thread) and its call stack in
 * SAMPLING_CALLCHAINS, stackDepth 0 the innermost frame.  Read as a CPU
 * profile of the run whose sample times are on the session clock, so that
 * a time range of the timeline has its flame graph. */

#define MAX_DEPTH 4096

typedef struct
{
  WsCpuProfile *profile;
  GHashTable *threads; /* globalTid → thread + 1 */
  GArray *stack;       /* guint32 frames, innermost first */
  gint64 id;
  gint64 time;
  guint32 thread;
} SampleLoad;

static void
flush (SampleLoad *load)
{
  guint32 *frames = (guint32 *) load->stack->data;
  guint n = load->stack->len;

  if (n == 0)
    return;
  /* Root first. */
  for (guint i = 0; i < n / 2; i++)
    {
      guint32 t = frames[i];

      frames[i] = frames[n - 1 - i];
      frames[n - 1 - i] = t;
    }
  ws_cpu_profile_add_sample (load->profile, ws_cpu_profile_intern_stack (load->profile, frames, n),
                             1, load->thread, load->time);
  g_array_set_size (load->stack, 0);
}

static guint32
thread_of (WsNsysReader *r, SampleLoad *load, gint64 global_tid)
{
  gpointer found = g_hash_table_lookup (load->threads, &global_tid);
  guint32 index;
  const WsThread *thread;
  g_autofree char *name = NULL;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  index = ws_nsys_thread_for (r, global_tid);
  thread = &g_array_index (r->run->threads, WsThread, index);
  if (thread->name != WS_STRING_NONE)
    name = g_strdup_printf ("%s (%u)", ws_run_string (r->run, thread->name), thread->tid);
  else
    name = g_strdup_printf ("Thread %u", thread->tid);
  index = ws_cpu_profile_add_thread (load->profile, name, thread->tid, global_tid);
  g_hash_table_insert (load->threads, g_memdup2 (&global_tid, sizeof global_tid),
                       GUINT_TO_POINTER (index + 1));
  return index;
}

static gboolean
callchain_row (WsNsysReader *r, sqlite3_stmt *stmt, gsize row, gpointer data)
{
  SampleLoad *load = data;
  gint64 id = sqlite3_column_int64 (stmt, 0);
  guint32 symbol = ws_nsys_column_string (r, stmt, 3);
  guint32 module = ws_nsys_column_string (r, stmt, 4);
  guint32 frame;

  if (id != load->id)
    {
      flush (load);
      load->id = id;
      load->time = ws_clamp_time (sqlite3_column_int64 (stmt, 1));
      load->thread = thread_of (r, load, sqlite3_column_int64 (stmt, 2));
    }
  if (load->stack->len >= MAX_DEPTH)
    return TRUE;
  frame = ws_cpu_profile_intern_frame (
    load->profile, symbol != WS_STRING_NONE ? ws_run_string (r->run, symbol) : "[unknown]",
    module != WS_STRING_NONE ? ws_run_string (r->run, module) : NULL, -1);
  g_array_append_val (load->stack, frame);
  return TRUE;
}

/* Loads the samples as a profile appended to the run's CPU profiles. */
gboolean
ws_nsys_load_cpu_samples (WsNsysReader *r, const char *events, const char *chains, GError **error)
{
  static const char *const event_cols[] = { "id", "start", "globalTid", NULL };
  static const char *const chain_cols[] = { "id", "symbol", "module", "stackDepth", NULL };
  g_autoptr (WsCpuProfile) profile =
    ws_cpu_profile_new (r->sql->path, "nsys-cpu-samples", "samples");
  g_autoptr (GHashTable) threads =
    g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  SampleLoad load = { profile, threads, stack, G_MININT64, 0, 0 };
  gint64 count;
  char *sql;
  gboolean ok;

  for (gsize i = 0; event_cols[i] != NULL; i++)
    if (!ws_sqlite_has_column (r->sql, events, event_cols[i]))
      return TRUE; /* an older layout: no samples rather than no run */
  for (gsize i = 0; chain_cols[i] != NULL; i++)
    if (!ws_sqlite_has_column (r->sql, chains, chain_cols[i]))
      return TRUE;
  if (!ws_sqlite_count (r->sql, chains, &count, error) ||
      !ws_limits_check_rows (r->sql->path, chains, count, 16, error))
    return FALSE;
  if (count == 0)
    return TRUE;

  sql = sqlite3_mprintf ("SELECT c.id, e.start, e.globalTid, c.symbol, c.module "
                         "FROM \"%w\" c JOIN \"%w\" e ON e.id = c.id "
                         "ORDER BY c.id, c.stackDepth",
                         chains, events);
  ok = ws_nsys_read_rows (r, chains, sql, count, callchain_row, &load, NULL, error);
  sqlite3_free (sql);
  if (!ok)
    return FALSE;
  flush (&load);
  if (ws_cpu_profile_n_samples (profile) == 0)
    return TRUE;
  profile->times_absolute = TRUE;
  ws_cpu_profile_finish (profile);
  g_ptr_array_add (r->run->cpu_profiles, g_steal_pointer (&profile));
  ws_run_add_source (r->run, "cpu-samples", events,
                     (gint64) ws_cpu_profile_n_samples (
                       g_ptr_array_index (r->run->cpu_profiles, r->run->cpu_profiles->len - 1)));
  return TRUE;
}
