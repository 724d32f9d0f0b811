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
 *
 * Which nsys kernels the launcher's ncu reports are made for: what a
 * capture's run.json records (a #WsCaptureKernelLookup).  Safe on a worker
 * thread; the export is opened read-only.
 *
 * Returns: %FALSE with @error set when the export cannot be read
 */
gboolean
ws_nsys_kernel_identities (const char *export_path, guint n, const char *const *names,
                           char **mangled, char **grid, char **block, GError **error)
{
  g_autoptr (WsSqlite) db = ws_sqlite_open (export_path, NULL, error);
  g_autoptr (sqlite3_stmt) stmt = NULL;
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
    }
  return TRUE;
}
