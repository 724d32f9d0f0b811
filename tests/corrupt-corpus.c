/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "corrupt-corpus.h"

/* Deterministic: the same corpus on every machine and run. */
static guint32
next_random (guint32 *state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state;
}

static gboolean
write_file (const char *dir, const char *name, const void *data, gsize len, GPtrArray *made,
            GError **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  if (!g_file_set_contents (path, data, len, error))
    return FALSE;
  g_ptr_array_add (made, g_steal_pointer (&path));
  return TRUE;
}

static gboolean
copy_file (const char *from, const char *dir, const char *name, GPtrArray *made, char **out,
           GError **error)
{
  g_autofree char *contents = NULL;
  gsize len;

  if (!g_file_get_contents (from, &contents, &len, error))
    return FALSE;
  if (!write_file (dir, name, contents, len, made, error))
    return FALSE;
  if (out != NULL)
    *out = g_strdup (g_ptr_array_index (made, made->len - 1));
  return TRUE;
}

/* Truncations at several cut points and copies with bits flipped. */
static gboolean
derive_damaged (const char *path, const char *dir, guint32 *seed, GPtrArray *made, GError **error)
{
  g_autofree char *contents = NULL;
  g_autofree char *base = g_path_get_basename (path);
  static const double cuts[] = { 0.0001, 0.01, 0.25, 0.5, 0.9, 0.999 };
  gsize len;

  if (!g_file_get_contents (path, &contents, &len, error))
    return FALSE;

  for (gsize c = 0; c < G_N_ELEMENTS (cuts); c++)
    {
      g_autofree char *name = g_strdup_printf ("cut%02d-%s", (int) c, base);
      gsize at = (gsize) ((double) len * cuts[c]);

      if (!write_file (dir, name, contents, MAX (at, 1), made, error))
        return FALSE;
    }

  for (int f = 0; f < 4; f++)
    {
      g_autofree char *copy = g_memdup2 (contents, len);
      g_autofree char *name = g_strdup_printf ("flip%d-%s", f, base);
      /* Flip 1, 8, 64 or 512 random bits (the header too, for the first). */
      guint flips = 1u << (3 * f);

      for (guint k = 0; k < flips; k++)
        {
          gsize at = f == 0 ? next_random (seed) % MIN (len, 100) : next_random (seed) % len;

          copy[at] ^= (char) (1u << (next_random (seed) % 8));
        }
      if (!write_file (dir, name, copy, len, made, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
exec_sql (const char *path, const char *sql, GError **error)
{
  sqlite3 *db = NULL;
  char *message = NULL;
  int rc = sqlite3_open (path, &db);

  if (rc == SQLITE_OK)
    rc = sqlite3_exec (db, sql, NULL, NULL, &message);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path,
                   message != NULL ? message : sqlite3_errmsg (db));
      sqlite3_free (message);
      sqlite3_close (db);
      return FALSE;
    }
  sqlite3_close (db);
  return TRUE;
}

/* Well-formed SQLite files with hostile contents, made from a real export. */
static gboolean
derive_hostile_sqlite (const char *probe, const char *dir, GPtrArray *made, GError **error)
{
  static const struct
  {
    const char *name;
    const char *sql;
  } edits[] = {
    { "nulls.sqlite",
      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = NULL, end = NULL, demangledName = NULL WHERE "
      "rowid % 3 = 0;"
      "UPDATE NVTX_EVENTS SET start = NULL, text = NULL, globalTid = NULL WHERE rowid % 2 = 0;"
      "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = NULL, end = NULL;"
      "UPDATE StringIds SET value = NULL WHERE id % 5 = 0;" },
    { "reversed-times.sqlite",
      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = -start, end = -start - 1000;"
      "UPDATE NVTX_EVENTS SET end = start - 77 WHERE end IS NOT NULL;"
      "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET start = 9223372036854775807, end = "
      "-9223372036854775808;" },
    { "huge-ids.sqlite",
      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = 9000000000000000000, streamId = -1,"
      " correlationId = -5, gridX = -1, blockX = 4294967296000, registersPerThread = -7;"
      "UPDATE NVTX_EVENTS SET domainId = 123456789012, color = -1, textId = -3;"
      "UPDATE GPU_METRICS SET metricId = rowid, typeId = rowid % 7;" },
    { "long-strings.sqlite",
      "UPDATE StringIds SET value = printf('%.*c', 1048576, 'x') WHERE id IN"
      " (SELECT DISTINCT demangledName FROM CUPTI_ACTIVITY_KIND_KERNEL);"
      "UPDATE NVTX_EVENTS SET text = printf('%.*c', 1048576, 'n') WHERE rowid < 4;" },
    { "sparse-string-ids.sqlite",
      "UPDATE StringIds SET id = id * 1000003 + 4611686018427387904 WHERE id > 10;" },
    { "text-in-number-columns.sqlite",
      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'soon', end = x'00ff', gridX = 'lots', "
      "deviceId = 2.5;"
      "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET bytes = 'many', copyKind = 'sideways';" },
    { "view-pretends-to-be-a-table.sqlite",
      "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;"
      "CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT "
      "i + 1 FROM n"
      " LIMIT 1000000000) SELECT i AS start, i + 1 AS end, 1 AS demangledName FROM n;" },
    { "no-string-table.sqlite", "DROP TABLE StringIds;" },
  };

  /* The export's tables declare NOT NULL and keys: copies without them
   * take any value, as a file from elsewhere may. */
  static const char *const loosen = "CREATE TABLE t1 AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL; "
                                    "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;"
                                    " ALTER TABLE t1 RENAME TO CUPTI_ACTIVITY_KIND_KERNEL;"
                                    "CREATE TABLE t2 AS SELECT * FROM NVTX_EVENTS; DROP TABLE "
                                    "NVTX_EVENTS; ALTER TABLE t2 RENAME TO NVTX_EVENTS;"
                                    "CREATE TABLE t3 AS SELECT * FROM CUPTI_ACTIVITY_KIND_RUNTIME; "
                                    "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME;"
                                    " ALTER TABLE t3 RENAME TO CUPTI_ACTIVITY_KIND_RUNTIME;"
                                    "CREATE TABLE t4 AS SELECT * FROM StringIds; DROP TABLE "
                                    "StringIds; ALTER TABLE t4 RENAME TO StringIds;"
                                    "CREATE TABLE t5 AS SELECT * FROM CUPTI_ACTIVITY_KIND_MEMCPY; "
                                    "DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY;"
                                    " ALTER TABLE t5 RENAME TO CUPTI_ACTIVITY_KIND_MEMCPY;"
                                    "CREATE TABLE t6 AS SELECT * FROM GPU_METRICS; DROP TABLE "
                                    "GPU_METRICS; ALTER TABLE t6 RENAME TO GPU_METRICS;";

  for (gsize i = 0; i < G_N_ELEMENTS (edits); i++)
    {
      g_autofree char *path = NULL;

      if (!copy_file (probe, dir, edits[i].name, made, &path, error) ||
          !exec_sql (path, loosen, error) || !exec_sql (path, edits[i].sql, error))
        return FALSE;
    }

  /* The right table names with the wrong columns and types. */
  {
    g_autofree char *path = g_build_filename (dir, "wrong-columns.sqlite", NULL);

    if (!exec_sql (
          path,
          "CREATE TABLE StringIds (id TEXT, value BLOB);"
          "INSERT INTO StringIds VALUES ('one', x'ff00ff');"
          "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start TEXT, end BLOB, demangledName REAL);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES ('a', x'00', 1.5), (NULL, NULL, NULL);"
          "CREATE TABLE NVTX_EVENTS (start TEXT, end TEXT, eventType TEXT);"
          "INSERT INTO NVTX_EVENTS VALUES ('x', 'y', 'push');"
          "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start, end, nameId);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1, 0, 'cudaMalloc');",
          error))
      return FALSE;
    g_ptr_array_add (made, g_steal_pointer (&path));
  }
  return TRUE;
}

static gboolean
derive_text_cases (const char *probe, const char *dir, GPtrArray *made, GError **error)
{
  g_autoptr (GString) wide = g_string_new ("Time (%),Total Time (ns),Instances");
  g_autoptr (GString) long_line = g_string_sized_new (100 * 1024 * 1024 + 64);
  const char *text = "This is a note, not a database.\n";

  if (!write_file (dir, "empty.sqlite", "", 0, made, error) ||
      !write_file (dir, "empty.csv", "", 0, made, error) ||
      !write_file (dir, "text-renamed.sqlite", text, strlen (text), made, error))
    return FALSE;

  /* A header of 10^6 columns. */
  for (int i = 0; i < 1000000; i++)
    g_string_append_printf (wide, ",c%d", i);
  g_string_append (wide, "\n1,2,3\n");
  if (!write_file (dir, "million-columns_cuda_gpu_kern_sum.csv", wide->str, wide->len, made, error))
    return FALSE;

  /* One line of 100 MB, quoted, in an nsys stats report. */
  g_string_append (
    long_line,
    "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
    "1.0,1,1,1.0,1.0,1,1,0.0,\"");
  while (long_line->len < 100 * 1024 * 1024)
    g_string_append (long_line, "abcdefghijklmnopqrstuvwxyz012345");
  g_string_append (long_line, "\"\n");
  if (!write_file (dir, "hundred-mb-line_cuda_gpu_kern_sum.csv", long_line->str, long_line->len,
                   made, error))
    return FALSE;

  /* ncu exports: a raw header of 10^6 metric columns, a cell of 100 MB,
   * a header without its units row, and a units row without launches. */
  {
    static const char *const lead = "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\","
                                    "\"Kernel Name\",\"Context\",\"Stream\",\"Device\",\"CC\"";
    g_autoptr (GString) ncu_wide = g_string_new (lead);
    g_autoptr (GString) ncu_long = g_string_sized_new (100 * 1024 * 1024 + 256);
    g_autofree char *headless = g_strdup_printf ("%s,\"gpu__time_duration.sum\"\n"
                                                 "\"0\",\"1\",\"p\",\"h\",\"k\",\"1\",\"7\","
                                                 "\"0\",\"9.0\",\"12.5\"\n",
                                                 lead);
    g_autofree char *no_launch =
      g_strdup_printf ("%s,\"gpu__time_duration.sum\"\n"
                       "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"us\"\n",
                       lead);

    for (int i = 0; i < 1000000; i++)
      g_string_append_printf (ncu_wide, ",\"m%d.sum\"", i);
    g_string_append (ncu_wide, "\n\"0\",\"1\"\n");
    g_string_append_printf (ncu_long, "%s,\"gpu__time_duration.sum\"\n\"0\",\"1\",\"p\",\"h\",\"",
                            lead);
    while (ncu_long->len < 100 * 1024 * 1024)
      g_string_append (ncu_long, "kernel_name_kernel_name_kernel_");
    g_string_append (ncu_long, "\",\"1\",\"7\",\"0\",\"9.0\",\"1.0\"\n");
    if (!write_file (dir, "million-columns_ncu_raw.csv", ncu_wide->str, ncu_wide->len, made,
                     error) ||
        !write_file (dir, "hundred-mb-cell_ncu_raw.csv", ncu_long->str, ncu_long->len, made,
                     error) ||
        !write_file (dir, "no-units-row_ncu_raw.csv", headless, strlen (headless), made, error) ||
        !write_file (dir, "units-only_ncu_raw.csv", no_launch, strlen (no_launch), made, error))
      return FALSE;
  }

  {
    const char *unterminated =
      "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
      "1.0,1,1,1.0,1.0,1,1,0.0,\"never closed\n";
    const char *binary = "Time (%),Total Time (ns),Instances\n\xff\xfe\x00\x01,2,3\n";

    if (!write_file (dir, "unterminated_cuda_gpu_kern_sum.csv", unterminated, strlen (unterminated),
                     made, error) ||
        !write_file (dir, "binary_cuda_gpu_kern_sum.csv", binary, 40, made, error))
      return FALSE;
  }
  return TRUE;
}

/**
 * ws_corrupt_corpus_generate:
 * @fixtures: (array zero-terminated=1): real files to derive from
 * @probe: a real nsys export to derive hostile SQLite files from
 *
 * Writes the corpus into @dir.
 *
 * Returns: (transfer full) (element-type filename): the files made
 */
GPtrArray *
ws_corrupt_corpus_generate (const char *const *fixtures, const char *probe, const char *dir,
                            GError **error)
{
  g_autoptr (GPtrArray) made = g_ptr_array_new_with_free_func (g_free);
  guint32 seed = 20261121;

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot create", dir);
      return NULL;
    }
  for (guint i = 0; fixtures[i] != NULL; i++)
    if (!derive_damaged (fixtures[i], dir, &seed, made, error))
      return NULL;
  if (!derive_hostile_sqlite (probe, dir, made, error) ||
      !derive_text_cases (probe, dir, made, error))
    return NULL;
  return g_steal_pointer (&made);
}
