/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-nsys-kernel-identity"
#include "config.h"

#include "ws-nsys-kernel-identity.h"
#include "ws-sqlite.h"

/**
 * ws_nsys_kernel_identities:
 * @export_path: an nsys SQLite export
 * @names: (array length=n): kernels by their demangled names
 * @mangled: (array length=n) (out caller-allocates): each one's mangled
 *   name, or NULL (exports before nsys 2022.1 have none)
 * @grid: (array length=n) (out caller-allocates): the grid it was launched
 *   with most often, as ncu writes it: "(256, 1, 1)"
 * @block: (array length=n) (out caller-allocates): the same for its block
 * @skip: (array length=n) (out caller-allocates): its launches before its
 *   first one inside a CUDA graph (0 when it never ran in one, or the
 *   export does not say: node tracing's graphNodeId)
 *
 * Which nsys kernels the launcher's ncu reports are made for: what a
 * capture's run.json records (a #WsCaptureKernelLookup).  Safe on a worker
 * thread; the export is opened read-only.
 *
 * Returns: %FALSE with @error set when the export cannot be read
 */
gboolean
ws_nsys_kernel_identities (const char *export_path, guint n, const char *const *names,
                           char **mangled, char **grid, char **block, guint *skip, GError **error)
{
  g_autoptr (WsSqlite) db = ws_sqlite_open (export_path, NULL, error);
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autoptr (sqlite3_stmt) before = NULL;
  g_autofree char *sql = NULL;
  const char *kernels;
  gboolean has_mangled;

  if (db == NULL)
    return FALSE;
  kernels = ws_sqlite_find_table (db, "CUPTI_ACTIVITY_KIND_KERNEL");
  if (kernels == NULL || ws_sqlite_find_table (db, "StringIds") == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s: no CUDA kernels", export_path);
      return FALSE;
    }
  has_mangled = ws_sqlite_has_column (db, kernels, "mangledName");
  /* Per configuration, most launches first: the first row of a name is
   * its most frequent grid and block. */
  sql = g_strdup_printf (
    "SELECT %s, gridX, gridY, gridZ, blockX, blockY, blockZ, count(*) AS launches"
    " FROM \"%s\" k JOIN StringIds s ON s.id = k.demangledName WHERE s.value = ?1"
    " GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY launches DESC LIMIT 1",
    has_mangled ? "(SELECT value FROM StringIds m WHERE m.id = k.mangledName)" : "NULL", kernels);
  stmt = ws_sqlite_prepare (db, sql, error);
  if (stmt == NULL)
    return FALSE;
  /* The launches ncu would profile first are those of the warm-up before
   * a kernel's first replay: count them, in launch order (start order on
   * its GPU), so that ncu skips them. */
  if (ws_sqlite_has_column (db, kernels, "graphNodeId"))
    {
      g_autofree char *count_sql = g_strdup_printf (
        "SELECT count(*) FROM \"%1$s\" k JOIN StringIds s ON s.id = k.demangledName"
        " WHERE s.value = ?1 AND k.start < (SELECT min(g.start) FROM \"%1$s\" g"
        " JOIN StringIds gs ON gs.id = g.demangledName"
        " WHERE gs.value = ?1 AND g.graphNodeId IS NOT NULL)",
        kernels);

      before = ws_sqlite_prepare (db, count_sql, error);
      if (before == NULL)
        return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      int rc;

      sqlite3_reset (stmt);
      sqlite3_bind_text (stmt, 1, names[i], -1, SQLITE_STATIC);
      rc = sqlite3_step (stmt);
      if (rc == SQLITE_DONE)
        continue;
      if (rc != SQLITE_ROW)
        {
          ws_sqlite_set_error (db, rc, kernels, error);
          return FALSE;
        }
      if (sqlite3_column_type (stmt, 0) == SQLITE_TEXT)
        mangled[i] = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
      grid[i] = g_strdup_printf (
        "(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
        (gint64) sqlite3_column_int64 (stmt, 1), (gint64) sqlite3_column_int64 (stmt, 2),
        (gint64) sqlite3_column_int64 (stmt, 3));
      block[i] = g_strdup_printf (
        "(%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ")",
        (gint64) sqlite3_column_int64 (stmt, 4), (gint64) sqlite3_column_int64 (stmt, 5),
        (gint64) sqlite3_column_int64 (stmt, 6));
      if (before != NULL)
        {
          sqlite3_reset (before);
          sqlite3_bind_text (before, 1, names[i], -1, SQLITE_STATIC);
          rc = sqlite3_step (before);
          if (rc != SQLITE_ROW)
            {
              ws_sqlite_set_error (db, rc, kernels, error);
              return FALSE;
            }
          skip[i] = (guint) CLAMP (sqlite3_column_int64 (before, 0), 0, G_MAXUINT);
        }
    }
  return TRUE;
}
