/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nsys"
#include "config.h"

#include <string.h>

#include "ws-hash.h"
#include "ws-limits.h"
#include "ws-nsys-reader-private.h"
#include "ws-run-build.h"
#include "ws-sqlite.h"

/* The strings and thread names that the event tables refer to, and what the
 * export says about its capture: metadata, GPUs, system, processes. */

typedef struct
{
  gint64 *ids;
  guint32 *ours;
  gint64 max_id;
} StringLoad;

static gboolean
string_row (WsNsysReader *r, sqlite3_stmt *stmt, gsize row, gpointer data)
{
  StringLoad *load = data;
  const char *value = (const char *) sqlite3_column_text (stmt, 1);

  load->ids[row] = sqlite3_column_int64 (stmt, 0);
  load->ours[row] = ws_string_table_intern (r->run->strings, value != NULL ? value : "");
  load->max_id = MAX (load->max_id, load->ids[row]);
  return TRUE;
}

gboolean
ws_nsys_load_strings (WsNsysReader *r, GError **error)
{
  return ws_nsys_load_string_table (r, ws_sqlite_find_table (r->sql, "StringIds"), "id", error);
}

/* Reads a table of (id, value) strings into the reader's id map: nsys's
 * StringIds, or nvprof's StringTable (whose id column is `_id_`). */
gboolean
ws_nsys_load_string_table (WsNsysReader *r, const char *table, const char *id_column,
                           GError **error)
{
  g_autofree gint64 *ids = NULL;
  g_autofree guint32 *ours = NULL;
  StringLoad load = { 0 };
  gint64 count;
  gsize n = 0;
  char *sql;
  gboolean ok;

  if (!ws_sqlite_count (r->sql, table, &count, error) ||
      !ws_limits_check_rows (r->sql->path, table, count, 64, error))
    return FALSE;

  load.ids = ids = g_new (gint64, MAX (count, 1));
  load.ours = ours = g_new (guint32, MAX (count, 1));
  load.max_id = -1;
  sql = sqlite3_mprintf ("SELECT \"%w\", value FROM \"%w\"", id_column, table);
  ok = ws_nsys_read_rows (r, table, sql, count, string_row, &load, &n, error);
  sqlite3_free (sql);
  if (!ok)
    return FALSE;

  if (load.max_id < (gint64) (2 * n + 65536))
    {
      r->string_map_len = (gsize) (load.max_id + 1);
      r->string_map = g_new (guint32, MAX (r->string_map_len, 1));
      memset (r->string_map, 0xff, sizeof (guint32) * r->string_map_len);
      for (gsize i = 0; i < n; i++)
        if (ids[i] >= 0)
          r->string_map[ids[i]] = ours[i];
    }
  else
    {
      r->string_sparse = g_hash_table_new_full (ws_int64_hash, g_int64_equal, g_free, NULL);
      for (gsize i = 0; i < n; i++)
        g_hash_table_insert (r->string_sparse, g_memdup2 (&ids[i], sizeof ids[i]),
                             GUINT_TO_POINTER (ours[i] + 1));
    }
  return TRUE;
}

static gboolean
thread_name_row (WsNsysReader *r, sqlite3_stmt *stmt, gsize row, gpointer data)
{
  gint64 tid = sqlite3_column_int64 (stmt, 1);
  guint32 name = ws_nsys_column_string (r, stmt, 0);

  if (name != WS_STRING_NONE)
    g_hash_table_insert (r->thread_names, g_memdup2 (&tid, sizeof tid),
                         GUINT_TO_POINTER (name + 1));
  return TRUE;
}

gboolean
ws_nsys_load_thread_names (WsNsysReader *r, GError **error)
{
  const char *table = ws_sqlite_find_table (r->sql, "ThreadNames");
  gint64 count;
  char *sql;
  gboolean ok;

  if (table == NULL || !ws_sqlite_has_column (r->sql, table, "nameId") ||
      !ws_sqlite_has_column (r->sql, table, "globalTid"))
    return TRUE;
  if (!ws_sqlite_count (r->sql, table, &count, error) ||
      !ws_limits_check_rows (r->sql->path, table, count, 64, error))
    return FALSE;
  sql = sqlite3_mprintf ("SELECT nameId, globalTid FROM \"%w\"", table);
  ok = ws_nsys_read_rows (r, table, sql, count, thread_name_row, NULL, NULL, error);
  sqlite3_free (sql);
  return ok;
}

typedef void (*NameValueFunc) (WsProvenance *prov, const char *name, const char *value);

/* Calls @func for each row of @table's name and value columns where both
 * are set, @limit appended to the SELECT.  Returns FALSE when @table is
 * missing or lacks those columns. */
static gboolean
read_name_values (WsNsysReader *r, const char *table, const char *limit, NameValueFunc func)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  char *sql;

  if (table == NULL || !ws_sqlite_has_column (r->sql, table, "name") ||
      !ws_sqlite_has_column (r->sql, table, "value"))
    return FALSE;
  sql = sqlite3_mprintf ("SELECT name, value FROM \"%w\"%s", table, limit);
  stmt = ws_sqlite_prepare (r->sql, sql, NULL);
  sqlite3_free (sql);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (stmt, 0);
      const char *value = (const char *) sqlite3_column_text (stmt, 1);

      if (name != NULL && value != NULL)
        func (&r->run->prov, name, value);
    }
  return TRUE;
}

static void
set_str (char **dest, const char *value)
{
  g_free (*dest);
  *dest = g_strdup (value);
}

static void
metadata_value (WsProvenance *prov, const char *name, const char *value)
{
  if (g_str_equal (name, "EXPORT_PRODUCT_NAME"))
    set_str (&prov->product, value);
  else if (g_str_equal (name, "EXPORT_PRODUCT_VERSION"))
    set_str (&prov->nsys_version, value);
  else if (g_str_equal (name, "EXPORT_SCHEMA_VERSION"))
    set_str (&prov->schema_version, value);
  else if (g_str_equal (name, "EXPORT_TIME_UTC"))
    set_str (&prov->export_time, value);
}

void
ws_nsys_load_metadata (WsNsysReader *r)
{
  static const char *const names[] = { "META_DATA_EXPORT", "EXPORT_META_DATA" };

  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const char *table = ws_sqlite_find_table (r->sql, names[i]);

      if (read_name_values (r, table, "", metadata_value))
        {
          r->run->prov.metadata_table = g_strdup (table);
          break;
        }
    }
}

void
ws_nsys_load_gpus (WsNsysReader *r)
{
  const char *table = ws_sqlite_find_table (r->sql, "TARGET_INFO_GPU");
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autofree char *id = NULL, *name = NULL, *bus = NULL, *chip = NULL, *sms = NULL;
  g_autofree char *major = NULL, *minor = NULL, *memory = NULL, *uuid = NULL;
  char *sql;

  if (table == NULL)
    return;
  id = ws_sqlite_column_or (r->sql, table, "id", "0");
  name = ws_sqlite_column_or (r->sql, table, "name", "NULL");
  bus = ws_sqlite_column_or (r->sql, table, "busLocation", "NULL");
  chip = ws_sqlite_column_or (r->sql, table, "chipName", "NULL");
  sms = ws_sqlite_column_or (r->sql, table, "smCount", "0");
  major = ws_sqlite_column_or (r->sql, table, "computeMajor", "0");
  minor = ws_sqlite_column_or (r->sql, table, "computeMinor", "0");
  memory = ws_sqlite_column_or (r->sql, table, "totalMemory", "0");
  uuid = ws_sqlite_column_or (r->sql, table, "uuid", "NULL");
  sql = sqlite3_mprintf ("SELECT %s, %s, %s, %s, %s, %s, %s, %s, %s FROM \"%w\" LIMIT 1024", id,
                         name, bus, chip, sms, major, minor, memory, uuid, table);
  stmt = ws_sqlite_prepare (r->sql, sql, NULL);
  sqlite3_free (sql);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    {
      WsGpu gpu = { 0 };

      gpu.id = ws_nsys_column_i32 (stmt, 0);
      gpu.name = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
      gpu.bus_location = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
      gpu.chip = g_strdup ((const char *) sqlite3_column_text (stmt, 3));
      gpu.sm_count = ws_nsys_column_i32 (stmt, 4);
      gpu.cc_major = ws_nsys_column_i32 (stmt, 5);
      gpu.cc_minor = ws_nsys_column_i32 (stmt, 6);
      gpu.memory_bytes = sqlite3_column_int64 (stmt, 7);
      gpu.uuid = g_strdup ((const char *) sqlite3_column_text (stmt, 8));
      g_array_append_val (r->run->prov.gpus, gpu);
    }
}

static void
system_value (WsProvenance *prov, const char *name, const char *value)
{
  if (g_str_equal (name, "Hostname") && prov->host == NULL)
    prov->host = g_strdup (value);
  else if (g_str_equal (name, "NvDriverVersion") && prov->driver_version == NULL)
    prov->driver_version = g_strdup (value);
  else if (g_str_equal (name, "OsDescription") && prov->os == NULL)
    prov->os = g_strdup (value);
}

static const char *
sql_type_name (int type)
{
  switch (type)
    {
      case SQLITE_FLOAT:
        return "a real";
      case SQLITE_TEXT:
        return "text";
      case SQLITE_BLOB:
        return "a blob";
      default:
        return "not a number";
    }
}

void
ws_nsys_load_system (WsNsysReader *r)
{
  const char *session = ws_sqlite_find_table (r->sql, "TARGET_INFO_SESSION_START_TIME");
  WsProvenance *prov = &r->run->prov;

  read_name_values (r, ws_sqlite_find_table (r->sql, "TARGET_INFO_SYSTEM_ENV"), " LIMIT 4096",
                    system_value);

  if (session != NULL && ws_sqlite_has_column (r->sql, session, "utcEpochNs"))
    {
      g_autoptr (sqlite3_stmt) stmt = NULL;
      char *sql = sqlite3_mprintf ("SELECT utcEpochNs FROM \"%w\" LIMIT 1", session);

      stmt = ws_sqlite_prepare (r->sql, sql, NULL);
      sqlite3_free (sql);
      if (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
        {
          /* nsys writes an integer; anything else (text, a real, a blob)
           * is not a time: said, and the clocks are then unknown. */
          if (sqlite3_column_type (stmt, 0) == SQLITE_INTEGER)
            prov->session_start_utc_ns = sqlite3_column_int64 (stmt, 0);
          else if (sqlite3_column_type (stmt, 0) != SQLITE_NULL)
            ws_run_add_warning (r->run,
                                "%s.utcEpochNs is not an integer (%s): the session's start is "
                                "unknown, and clocks of several exports cannot be aligned",
                                session, sql_type_name (sqlite3_column_type (stmt, 0)));
        }
    }
}

/* What META_DATA_CAPTURE says of the process nsys launched (PROCESS_0):
 * its command line and environment, where a rank's number and its job's
 * identity are (RANK="3", SLURM_JOB_ID="…"). */
typedef struct
{
  GPtrArray *argv;
  GPtrArray *env;
} CaptureLoad;

static void
capture_row (const char *name, const char *value, CaptureLoad *load)
{
  const char *key;
  guint64 index;
  char *end;

  if (!g_str_has_prefix (name, "PROCESS_0:"))
    return;
  key = name + strlen ("PROCESS_0:");
  if (g_str_equal (key, "COMMAND"))
    {
      g_free (g_ptr_array_index (load->argv, 0));
      g_ptr_array_index (load->argv, 0) = g_strdup (value);
    }
  else if (g_str_has_prefix (key, "ARGUMENT_"))
    {
      index = g_ascii_strtoull (key + strlen ("ARGUMENT_"), &end, 10);
      if (*end != '\0' || index >= 4096)
        return;
      while (load->argv->len < index + 2)
        g_ptr_array_add (load->argv, NULL);
      g_free (g_ptr_array_index (load->argv, index + 1));
      g_ptr_array_index (load->argv, index + 1) = g_strdup (value);
    }
  else if (g_str_equal (key, "ENVIRONMENT_VARIABLE") && load->env->len < 4096)
    {
      /* NAME="value", as nsys writes it. */
      const char *eq = strchr (value, '=');
      gsize len;

      if (eq == NULL || eq == value)
        return;
      len = strlen (eq + 1);
      if (len >= 2 && eq[1] == '"' && eq[len] == '"')
        g_ptr_array_add (load->env, g_strdup_printf ("%.*s=%.*s", (int) (eq - value), value,
                                                     (int) (len - 2), eq + 2));
      else
        g_ptr_array_add (load->env, g_strdup (value));
    }
}

void
ws_nsys_load_capture (WsNsysReader *r)
{
  const char *table = ws_sqlite_find_table (r->sql, "META_DATA_CAPTURE");
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) env = g_ptr_array_new_with_free_func (g_free);
  CaptureLoad load = { argv, env };
  WsProvenance *prov = &r->run->prov;
  char *sql;

  if (table == NULL || !ws_sqlite_has_column (r->sql, table, "name") ||
      !ws_sqlite_has_column (r->sql, table, "value"))
    return;
  g_ptr_array_add (argv, NULL);
  sql = sqlite3_mprintf ("SELECT name, value FROM \"%w\" WHERE name LIKE 'PROCESS\\_0:%%' "
                         "ESCAPE '\\' LIMIT 20000",
                         table);
  stmt = ws_sqlite_prepare (r->sql, sql, NULL);
  sqlite3_free (sql);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (stmt, 0);
      const char *value = (const char *) sqlite3_column_text (stmt, 1);

      if (name != NULL && value != NULL)
        capture_row (name, value, &load);
    }
  if (g_ptr_array_index (argv, 0) != NULL)
    {
      GString *line = g_string_new (NULL);

      for (guint i = 0; i < argv->len; i++)
        {
          const char *arg = g_ptr_array_index (argv, i);
          g_autofree char *quoted = NULL;

          if (arg == NULL)
            continue;
          if (line->len > 0)
            g_string_append_c (line, ' ');
          /* Quoted only where a shell would need it, so that the line reads
           * as it was typed. */
          if (*arg != '\0' && strpbrk (arg, " \t\n'\"\\$`|&;<>()*?[]#~{}") == NULL)
            g_string_append (line, arg);
          else
            {
              quoted = g_shell_quote (arg);
              g_string_append (line, quoted);
            }
        }
      prov->target_command = g_string_free (line, FALSE);
    }
  if (env->len > 0)
    {
      g_ptr_array_add (env, NULL);
      prov->target_env = (char **) g_ptr_array_free (g_steal_pointer (&env), FALSE);
    }
}

/* nsys's MPI tracing names each rank's thread "MPI Rank N" (an NVTX
 * thread-name event, eventType 39), where no environment was recorded. */
void
ws_nsys_load_thread_rank (WsNsysReader *r)
{
  const char *table = ws_sqlite_find_table (r->sql, "NVTX_EVENTS");
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autofree char *text = NULL;
  char *sql;

  if (table == NULL || !ws_sqlite_has_column (r->sql, table, "eventType"))
    return;
  text = ws_sqlite_has_column (r->sql, table, "textId") &&
             ws_sqlite_find_table (r->sql, "StringIds") != NULL
           ? g_strdup ("coalesce(e.text, (SELECT value FROM StringIds WHERE id = e.textId))")
           : g_strdup ("e.text");
  sql = sqlite3_mprintf ("SELECT %s FROM \"%w\" AS e WHERE e.eventType = 39 LIMIT 64", text, table);
  stmt = ws_sqlite_prepare (r->sql, sql, NULL);
  sqlite3_free (sql);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (stmt, 0);

      if (name != NULL && g_str_has_prefix (name, "MPI Rank "))
        {
          r->run->prov.thread_rank_name = g_strdup (name);
          return;
        }
    }
}

static gboolean
is_shell (const char *name)
{
  static const char *const shells[] = { "bash", "sh", "dash", "zsh", NULL };
  g_autofree char *base = name != NULL ? g_path_get_basename (name) : NULL;

  return base != NULL && g_strv_contains (shells, base);
}

/* The program a shell ran: the first word of CMD in `bash -lc CMD` (after
 * any NAME=value), or NULL. */
static char *
program_of_shell_command (const char *command_line)
{
  g_auto (GStrv) argv = NULL;
  g_auto (GStrv) words = NULL;

  if (command_line == NULL || !g_shell_parse_argv (command_line, NULL, &argv, NULL) ||
      g_strv_length (argv) < 3)
    return NULL;
  if (!is_shell (argv[0]) || argv[1][0] != '-' || strchr (argv[1], 'c') == NULL)
    return NULL;
  words = g_strsplit_set (argv[2], " \t\n;|&()", -1);
  for (guint i = 0; words[i] != NULL; i++)
    {
      if (words[i][0] == '\0' || (strchr (words[i], '=') != NULL && words[i][0] != '='))
        continue;
      if (g_str_equal (words[i], "exec") || g_str_equal (words[i], "env"))
        continue;
      return g_path_get_basename (words[i]);
    }
  return NULL;
}

/* The name a process is known by.  nsys's PROCESSES keeps the name a
 * process started with: `bash` for every target that the launcher runs as
 * `bash -lc CMD`, whatever it then exec'd.  Such a shell is named by its
 * main thread's name (ThreadNames, tid = pid: the program it became, cut
 * to 15 characters by the kernel), or else, where nsys launched it, by the
 * program its command runs.  Any other name stays as PROCESSES has it (a
 * full path). */
static char *
process_name (WsNsysReader *r, guint32 pid, gint64 global_pid, const char *listed)
{
  gint64 main_tid = (global_pid & ~(gint64) 0xFFFFFF) | pid;
  gpointer found;
  const char *thread;

  if (!is_shell (listed))
    return g_strdup (listed);
  found = g_hash_table_lookup (r->thread_names, &main_tid);
  thread = found != NULL ? ws_run_string (r->run, GPOINTER_TO_UINT (found) - 1) : NULL;
  if (thread != NULL && thread[0] != '\0' && !is_shell (thread))
    return g_strdup (thread);
  {
    char *program = program_of_shell_command (r->run->prov.target_command);

    if (program != NULL)
      return program;
  }
  return g_strdup (listed);
}

/* The GPU work (kernels, memory operations, replays) each process ran. */
static GHashTable *
gpu_work_by_pid (const WsRun *run)
{
  GHashTable *work = g_hash_table_new (NULL, NULL);
  const guint32 *streams[] = { run->kernels.stream, run->memops.stream, run->replays.stream };
  const gsize ns[] = { run->kernels.n, run->memops.n, run->replays.n };

  for (guint t = 0; t < G_N_ELEMENTS (streams); t++)
    for (gsize i = 0; streams[t] != NULL && i < ns[t]; i++)
      {
        gpointer key;

        if (streams[t][i] >= run->streams->len)
          continue;
        key = GUINT_TO_POINTER (g_array_index (run->streams, WsStream, streams[t][i]).pid + 1);
        g_hash_table_insert (
          work, key, GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (work, key)) + 1));
      }
  return work;
}

static int
compare_processes (gconstpointer a, gconstpointer b, gpointer data)
{
  const WsProcess *x = a, *y = b;
  gsize wx = GPOINTER_TO_SIZE (g_hash_table_lookup (data, GUINT_TO_POINTER (x->pid + 1)));
  gsize wy = GPOINTER_TO_SIZE (g_hash_table_lookup (data, GUINT_TO_POINTER (y->pid + 1)));

  if (wx != wy)
    return wx > wy ? -1 : 1;
  return (x->pid > y->pid) - (x->pid < y->pid);
}

void
ws_nsys_load_processes (WsNsysReader *r)
{
  const char *table = ws_sqlite_find_table (r->sql, "PROCESSES");
  g_autoptr (GHashTable) wanted = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) work = NULL;
  g_autoptr (sqlite3_stmt) stmt = NULL;
  char *sql;

  /* Only the processes that show up in the events: a capture's PROCESSES
   * table also lists every kernel thread of the machine.  Each with its
   * globalPid, for its main thread's name. */
  for (guint i = 0; i < r->run->streams->len; i++)
    {
      const WsStream *stream = &g_array_index (r->run->streams, WsStream, i);

      g_hash_table_insert (wanted, GUINT_TO_POINTER (stream->pid + 1),
                           GSIZE_TO_POINTER ((gsize) stream->global_pid));
    }
  for (guint i = 0; i < r->run->threads->len; i++)
    {
      const WsThread *thread = &g_array_index (r->run->threads, WsThread, i);

      g_hash_table_insert (wanted, GUINT_TO_POINTER (thread->pid + 1),
                           GSIZE_TO_POINTER ((gsize) thread->global_tid));
    }

  if (table == NULL || !ws_sqlite_has_column (r->sql, table, "pid") ||
      !ws_sqlite_has_column (r->sql, table, "name"))
    return;

  sql = sqlite3_mprintf ("SELECT pid, name FROM \"%w\" LIMIT 100000", table);
  stmt = ws_sqlite_prepare (r->sql, sql, NULL);
  sqlite3_free (sql);
  while (stmt != NULL && sqlite3_step (stmt) == SQLITE_ROW)
    {
      WsProcess process;
      gpointer global;

      process.pid = ws_nsys_column_u32 (stmt, 0);
      if (!g_hash_table_lookup_extended (wanted, GUINT_TO_POINTER (process.pid + 1), NULL, &global))
        continue;
      g_hash_table_remove (wanted, GUINT_TO_POINTER (process.pid + 1));
      process.name = process_name (r, process.pid, (gint64) GPOINTER_TO_SIZE (global),
                                   (const char *) sqlite3_column_text (stmt, 1));
      g_array_append_val (r->run->prov.processes, process);
    }
  /* The processes that ran GPU work first, most work first. */
  work = gpu_work_by_pid (r->run);
  g_array_sort_with_data (r->run->prov.processes, compare_processes, work);
}
