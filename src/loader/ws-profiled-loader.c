/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-loader"
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "ws-gauges.h"
#include "ws-input.h"
#include "ws-json-depth.h"
#include "ws-loader-error.h"
#include "ws-ncu-reader.h"
#include "ws-nvprof-log.h"
#include "ws-run-build.h"
#include "ws-run-loader-private.h"
#include "ws-run-loader.h"

/* The profiled launches of a run, for the loader (ws-run-loader.c): its ncu
 * CSVs with their gauges and what the capture expected of them, or an
 * nvprof log's metrics; and the summary tables of nvprof logs. */

/* The ncu CSVs of a run, read together (a raw and a details export of one
 * report give each launch once), with the gauges of each launch.  A file
 * named on its own must read; one a folder brought along that holds only
 * ncu's error messages is left out with a warning, so that the rest of
 * the capture still opens. */
WsNcuResults *
ws_loader_read_ncu (GPtrArray *paths, GArray *from_folder, GPtrArray *warnings,
                    GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) kept = NULL;
  g_autoptr (GError) first_error = NULL;
  WsNcuResults *results;

  g_ptr_array_add (paths, NULL);
  results = ws_ncu_reader_load ((const char *const *) paths->pdata, cancellable, &first_error);
  g_ptr_array_remove_index (paths, paths->len - 1);
  if (results != NULL)
    {
      ws_gauges_compute_all (results);
      return results;
    }

  kept = g_ptr_array_new ();
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr (GError) file_error = NULL;
      g_autoptr (WsNcuResults) probe = NULL;

      if (!g_array_index (from_folder, gboolean, i))
        {
          g_ptr_array_add (kept, (gpointer) path);
          continue;
        }
      probe = ws_ncu_reader_load_file (path, &file_error);
      if (probe != NULL)
        g_ptr_array_add (kept, (gpointer) path);
      else
        g_ptr_array_add (warnings, g_strdup_printf ("skipped %s", file_error->message));
    }
  if (kept->len == paths->len || kept->len == 0)
    {
      /* Nothing to leave out, or nothing left: the first error stands. */
      g_propagate_error (error, g_steal_pointer (&first_error));
      return NULL;
    }
  g_ptr_array_add (kept, NULL);
  results = ws_ncu_reader_load ((const char *const *) kept->pdata, cancellable, error);
  if (results != NULL)
    ws_gauges_compute_all (results);
  return results;
}

static char *
member_string (JsonObject *object, const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return g_strdup (json_node_get_string (node));
}

/* A capture's run.json names the nsys kernel each ncu report was made for
 * ("kernels": [{"name", "file", "mangled", "grid", "block"}]): the
 * launches of K_ncu_raw.csv join that kernel by construction. */
void
ws_loader_expect_manifest_kernels (WsNcuResults *ncu, const char *run_json)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode *kernels;
  JsonArray *list;
  g_autoptr (GHashTable) per_file = g_hash_table_new (g_str_hash, g_str_equal);

  g_autofree char *text = NULL;
  gsize len = 0;

  if (!ws_json_read_file (run_json, WS_JSON_MANIFEST_MAX_BYTES, &text, &len, NULL) ||
      !json_parser_load_from_data (parser, text, (gssize) len, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return;
  kernels =
    json_object_get_member (json_node_get_object (json_parser_get_root (parser)), "kernels");
  if (kernels == NULL || !JSON_NODE_HOLDS_ARRAY (kernels))
    return;
  list = json_node_get_array (kernels);
  /* A report made for several kernels (NCU_MULTI_RUN=0) names no one. */
  for (guint k = 0; k < json_array_get_length (list); k++)
    {
      JsonNode *node = json_array_get_element (list, k);
      const char *file;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      file = json_object_get_string_member_with_default (json_node_get_object (node), "file", NULL);
      if (file != NULL)
        g_hash_table_insert (
          per_file, (gpointer) file,
          GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (per_file, file)) + 1));
    }
  for (guint f = 0; f < ncu->files->len; f++)
    {
      g_autofree char *base = g_path_get_basename (g_ptr_array_index (ncu->files, f));

      if (!g_str_has_suffix (base, "_ncu_raw.csv"))
        continue;
      base[strlen (base) - strlen ("_ncu_raw.csv")] = '\0';
      if (GPOINTER_TO_UINT (g_hash_table_lookup (per_file, base)) != 1)
        continue;
      for (guint k = 0; k < json_array_get_length (list); k++)
        {
          JsonNode *node = json_array_get_element (list, k);
          JsonObject *object;
          WsNcuExpected expected = { 0 };

          if (!JSON_NODE_HOLDS_OBJECT (node))
            continue;
          object = json_node_get_object (node);
          if (g_strcmp0 (json_object_get_string_member_with_default (object, "file", NULL), base) !=
              0)
            continue;
          expected.demangled = member_string (object, "name");
          expected.mangled = member_string (object, "mangled");
          expected.grid = member_string (object, "grid");
          expected.block = member_string (object, "block");
          if (expected.demangled != NULL)
            ws_ncu_results_expect (ncu, f, &expected);
          g_free (expected.demangled);
          g_free (expected.mangled);
          g_free (expected.grid);
          g_free (expected.block);
        }
    }
}

/* ncu CSVs opened from a capture's ncu/ folder without the folder: its
 * run.json is one level up. */
void
ws_loader_expect_beside_kernels (WsNcuResults *ncu)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint f = 0; f < ncu->files->len; f++)
    {
      g_autofree char *dir = g_path_get_dirname (g_ptr_array_index (ncu->files, f));
      g_autofree char *base = g_path_get_basename (dir);
      char *manifest;

      if (!g_str_equal (base, "ncu"))
        continue;
      manifest = g_build_filename (dir, "..", "run.json", NULL);
      if (!g_hash_table_add (seen, manifest) || !g_file_test (manifest, G_FILE_TEST_IS_REGULAR))
        continue;
      ws_loader_expect_manifest_kernels (ncu, manifest);
    }
}

static int
compare_names (const char *const *a, const char *const *b)
{
  return strcmp (*a, *b);
}

/* The CSV files in @folder and its folders, @depth levels down, by name. */
static void
add_csvs_of (const char *folder, int depth, GPtrArray *files)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (folder, g_ptr_array_index (names, i), NULL);

      if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        continue;
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          if (depth > 1)
            add_csvs_of (path, depth - 1, files);
        }
      else if (g_str_has_suffix (path, ".csv"))
        g_ptr_array_add (files, g_steal_pointer (&path));
    }
}

/**
 * ws_run_load_ncu:
 * @paths: (array zero-terminated=1): files and capture folders
 * @warnings: (element-type utf8): gets a line per ncu CSV of a folder
 *   that had to be left out
 *
 * The ncu CSVs among @paths and in the capture folders among them, read
 * as ws_run_load() reads them (a capture's run.json names the nsys kernel
 * each report was made for): a job's ranks load their exports apart, and
 * its capture's ncu results with this.
 *
 * Returns: (transfer full) (nullable): the results, or %NULL when there is
 *   no ncu CSV (@error unset) or they cannot be read (@error set)
 */
WsNcuResults *
ws_run_load_ncu (const char *const *paths, GPtrArray *warnings, GCancellable *cancellable,
                 GError **error)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) in_folder = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr (GPtrArray) ncu_paths = g_ptr_array_new ();
  g_autoptr (GArray) ncu_in_folder = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autofree char *run_json = NULL;
  WsNcuResults *ncu;

  g_return_val_if_fail (paths != NULL, NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      gboolean folder = g_file_test (paths[i], G_FILE_TEST_IS_DIR);

      if (folder)
        {
          g_autofree char *manifest = g_build_filename (paths[i], "run.json", NULL);

          /* A job's folder holds several exports, which a capture folder
           * of one run may not: its CSVs are looked for here. */
          add_csvs_of (paths[i], 2, files);
          if (run_json == NULL && g_file_test (manifest, G_FILE_TEST_IS_REGULAR))
            run_json = g_steal_pointer (&manifest);
        }
      else
        g_ptr_array_add (files, g_strdup (paths[i]));
      while (in_folder->len < files->len)
        g_array_append_val (in_folder, folder);
    }
  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);

      /* Globs and exports are not ncu CSVs; what cannot be told is the
       * exports' loader's to say. */
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR) &&
          ws_input_detect (path, NULL) == WS_INPUT_NCU_CSV)
        {
          g_ptr_array_add (ncu_paths, (gpointer) path);
          g_array_append_val (ncu_in_folder, g_array_index (in_folder, gboolean, i));
        }
    }
  if (ncu_paths->len == 0)
    return NULL;
  ncu = ws_loader_read_ncu (ncu_paths, ncu_in_folder, warnings, cancellable, error);
  if (ncu != NULL && run_json != NULL)
    ws_loader_expect_manifest_kernels (ncu, run_json);
  return ncu;
}

/* An nvprof console log or `--csv` summary: its first profiling result
 * gives the kernel, memory-operation and API summaries the run has no
 * events for; the others, and its Unified Memory rows, are said. */
void
ws_loader_attach_nvprof_log (WsRun *run, const char *path, GPtrArray *results)
{
  WsNvprofResult *first = NULL;
  WsSummary *summaries[3];
  g_autoptr (GString) others = g_string_new (NULL);
  guint n_others = 0;

  if (!g_ptr_array_find_with_equal_func (run->prov.files, path, g_str_equal, NULL))
    g_ptr_array_add (run->prov.files, g_strdup (path));
  /* The first result with tables; those with only metric blocks gave
   * their kernels to the run's profiled launches. */
  for (guint i = 0; i < results->len && first == NULL; i++)
    {
      WsNvprofResult *r = g_ptr_array_index (results, i);

      if (!r->metrics || r->kernels != NULL || r->memops != NULL || r->api != NULL || r->no_kernels)
        first = r;
    }
  if (first == NULL)
    return;
  summaries[0] = first->kernels;
  summaries[1] = first->memops;
  summaries[2] = first->api;
  for (guint i = 0; i < G_N_ELEMENTS (summaries); i++)
    if (summaries[i] != NULL && !ws_run_has_summary_events (run, summaries[i]->kind) &&
        run->summaries[summaries[i]->kind] == NULL)
      run->summaries[summaries[i]->kind] = ws_summary_ref (summaries[i]);
  /* The profiled command, as an export names its processes. */
  if (first->pid != 0 && ws_run_process_name (run, first->pid) == NULL)
    {
      WsProcess process = { first->pid, g_strdup (first->command != NULL ? first->command : "?") };

      g_array_append_val (run->prov.processes, process);
    }
  if (first->no_kernels)
    ws_run_add_warning (run, "%s: No kernels were profiled (process %u)", path, first->pid);
  for (guint i = 0; i < first->unified->len; i++)
    ws_run_add_warning (run, "%s: Unified Memory: %s", path,
                        (const char *) g_ptr_array_index (first->unified, i));
  for (guint i = 0; i < results->len; i++)
    {
      WsNvprofResult *r = g_ptr_array_index (results, i);

      if (r == first || (r->metrics && r->kernels == NULL && r->memops == NULL && r->api == NULL &&
                         !r->no_kernels))
        continue;
      g_string_append_printf (others, "%s%u", n_others > 0 ? ", " : "", r->pid);
      n_others++;
    }
  if (n_others > 0)
    ws_run_add_warning (run,
                        "%s: %u more profiling results in the log (processes %s); the first "
                        "(process %u) is shown",
                        path, n_others, others->str, first->pid);
}

/* Reads the nvprof logs of a run once: their tables go to the run later
 * (ws_loader_attach_nvprof_log()), their `--metrics`/`--events` kernels are the
 * run's profiled launches, as an ncu CSV's are.  One set of profiled
 * launches per run: ncu CSVs, or one nvprof metrics file. */
gboolean
ws_loader_read_nvprof_logs (GPtrArray *files, GArray *kinds, gboolean with_ncu, GHashTable *logs,
                            WsNcuResults **metrics, GError **error)
{
  const char *metrics_path = NULL;

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      g_autoptr (WsNcuResults) found = NULL;
      GPtrArray *results;

      if (g_array_index (kinds, WsInputKind, i) != WS_INPUT_NVPROF_LOG)
        continue;
      results = ws_nvprof_log_read (path, &found, error);
      if (results == NULL)
        return FALSE;
      g_hash_table_insert (logs, g_strdup (path), results);
      if (found == NULL)
        continue;
      if (with_ncu || metrics_path != NULL)
        {
          g_set_error (error, WS_LOADER_ERROR, WS_LOADER_ERROR_FORMAT,
                       "%s: nvprof metrics, and the run has its profiled kernels from %s already; "
                       "a run holds one set (ncu CSVs or one nvprof metrics file): open it in a "
                       "window of its own",
                       path, metrics_path != NULL ? metrics_path : "ncu CSVs");
          return FALSE;
        }
      metrics_path = path;
      ws_gauges_compute_all (found);
      *metrics = g_steal_pointer (&found);
    }
  return TRUE;
}
