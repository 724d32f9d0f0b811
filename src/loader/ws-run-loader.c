/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-loader"
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "ws-cpu-reader.h"
#include "ws-digest-loader.h"
#include "ws-gauges.h"
#include "ws-input.h"
#include "ws-kineto-reader.h"
#include "ws-json-depth.h"
#include "ws-load-relay.h"
#include "ws-loader-error.h"
#include "ws-ncu-match.h"
#include "ws-ncu-reader.h"
#include "ws-ranks-loader.h"
#include "ws-nsys-reader.h"
#include "ws-nsys-stats-reader.h"
#include "ws-nvprof-log.h"
#include "ws-nvprof-reader.h"
#include "ws-nvprof-trace.h"
#include "ws-report-convert.h"
#include "ws-manifest-reader.h"
#include "ws-run-build.h"
#include "ws-run-loader.h"
#include "ws-trace-join.h"
#include "ws-stats-build.h"
#include "ws-stats.h"

/* The ncu CSVs of a run, read together (a raw and a details export of one
 * report give each launch once), with the gauges of each launch.  A file
 * named on its own must read; one a folder brought along that holds only
 * ncu's error messages is left out with a warning, so that the rest of
 * the capture still opens. */
static WsNcuResults *
load_ncu (GPtrArray *paths, GArray *from_folder, GPtrArray *warnings, GCancellable *cancellable,
          GError **error)
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
static void
expect_manifest_kernels (WsNcuResults *ncu, const char *run_json)
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
static void
expect_beside_kernels (WsNcuResults *ncu)
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
      expect_manifest_kernels (ncu, manifest);
    }
}

static gboolean
is_report (WsInputKind kind)
{
  return kind == WS_INPUT_NSYS_REPORT || kind == WS_INPUT_NCU_REPORT;
}

/* The readers name the table they read; people read a phrase. */
typedef struct
{
  WsProgressFunc func;
  gpointer data;
} ReadingProgress;

static void
reading_progress (double fraction, const char *what, gpointer data)
{
  ReadingProgress *reading = data;
  g_autofree char *phrase = g_strdup_printf (_ ("Reading %s"), what);

  reading->func (fraction, phrase, reading->data);
}

/* Converts the reports among @files in place: each becomes the file its
 * tool wrote, and @reports maps that file back to the report.  A report
 * that a folder brought along and that fails to convert is left out with
 * a warning when it is an ncu report (the run stands without it), as a
 * CSV of only ncu errors is. */
static gboolean
convert_reports (GPtrArray *files, GArray *kinds, GArray *in_folder, GHashTable *reports,
                 const WsCaptureRecord *capture, GPtrArray *warnings, GCancellable *cancellable,
                 WsProgressFunc progress, gpointer progress_data, GError **error)
{
  g_autoptr (GError) first_skipped = NULL;

  for (guint i = 0; i < files->len;)
    {
      const char *path = g_ptr_array_index (files, i);
      WsInputKind kind = g_array_index (kinds, WsInputKind, i);
      g_autoptr (GError) local = NULL;
      char *converted;

      if (!is_report (kind))
        {
          i++;
          continue;
        }
      /* A capture folder knows the tools that made it: the last resort. */
      converted = ws_report_convert_with (
        path, kind == WS_INPUT_NSYS_REPORT ? WS_REPORT_TOOL_NSYS : WS_REPORT_TOOL_NCU,
        capture == NULL                ? NULL
        : kind == WS_INPUT_NSYS_REPORT ? capture->nsys_path
                                       : capture->ncu_path,
        cancellable, progress, progress_data, &local);
      if (converted == NULL)
        {
          if (kind == WS_INPUT_NCU_REPORT && g_array_index (in_folder, gboolean, i) &&
              !g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_ptr_array_add (warnings, g_strdup_printf ("skipped %s", local->message));
              if (first_skipped == NULL)
                first_skipped = g_steal_pointer (&local);
              g_ptr_array_remove_index (files, i);
              g_array_remove_index (kinds, i);
              g_array_remove_index (in_folder, i);
              continue;
            }
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      g_hash_table_insert (reports, g_strdup (converted), g_strdup (path));
      g_ptr_array_index (files, i) = converted;
      g_free ((char *) path);
      g_array_index (kinds, WsInputKind, i) =
        kind == WS_INPUT_NSYS_REPORT ? WS_INPUT_NSYS_SQLITE : WS_INPUT_NCU_CSV;
      i++;
    }
  if (files->len == 0)
    {
      /* Nothing left: the first failure stands. */
      g_propagate_error (error, g_steal_pointer (&first_skipped));
      return FALSE;
    }
  return TRUE;
}

/* A message about a converted file names the report first: that is the
 * file the user opened. */
static void
name_report (GHashTable *reports, GError *error)
{
  GHashTableIter iter;
  gpointer converted, report;

  if (error == NULL)
    return;
  g_hash_table_iter_init (&iter, reports);
  while (g_hash_table_iter_next (&iter, &converted, &report))
    if (g_str_has_prefix (error->message, converted))
      {
        g_prefix_error (&error, "%s: ", (const char *) report);
        return;
      }
}

static gboolean
attach_stats (WsRun *run, const char *path, GError **error)
{
  g_autoptr (WsSummary) summary = ws_nsys_stats_read (path, error);

  if (summary == NULL)
    return FALSE;
  g_ptr_array_add (run->prov.files, g_strdup (path));
  /* The export's own events win over a CSV of the same report. */
  if (ws_run_has_summary_events (run, summary->kind))
    return TRUE;
  if (run->summaries[summary->kind] != NULL)
    {
      ws_run_add_warning (run, "%s: a second %s report; the first one is used", path,
                          ws_summary_kind_to_string (summary->kind));
      return TRUE;
    }
  run->summaries[summary->kind] = g_steal_pointer (&summary);
  return TRUE;
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
  ncu = load_ncu (ncu_paths, ncu_in_folder, warnings, cancellable, error);
  if (ncu != NULL && run_json != NULL)
    expect_manifest_kernels (ncu, run_json);
  return ncu;
}

/* An nvprof console log or `--csv` summary: its first profiling result
 * gives the kernel, memory-operation and API summaries the run has no
 * events for; the others, and its Unified Memory rows, are said. */
static void
attach_nvprof_log (WsRun *run, const char *path, GPtrArray *results)
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
 * (attach_nvprof_log()), their `--metrics`/`--events` kernels are the
 * run's profiled launches, as an ncu CSV's are.  One set of profiled
 * launches per run: ncu CSVs, or one nvprof metrics file. */
static gboolean
read_nvprof_logs (GPtrArray *files, GArray *kinds, gboolean with_ncu, GHashTable *logs,
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

/* The files of one run, as the loader reads them: each path, a folder's
 * files in its place, their kinds, whether each came from a folder, the
 * reports converted to exports, and a capture folder's record. */
typedef struct
{
  GPtrArray *files;    /* char * */
  GArray *kinds;       /* WsInputKind, one per file */
  GArray *in_folder;   /* gboolean, one per file */
  GHashTable *reports; /* export path → the report it was converted from */
  GHashTable *logs;    /* nvprof log path → its results (GPtrArray) */
  GPtrArray *warnings; /* char *: what the ncu CSVs and the record said */
  char *run_json;      /* a capture folder's run.json, or NULL */
  WsCaptureRecord *capture;
  gboolean from_folder;
  WsInputKind first_kind; /* the first file's kind, before reports were converted */
  const char *export;     /* the one export among @files, or NULL */
  WsInputKind export_kind;
  const char *trace; /* a PyTorch profiler trace beside an nsys export, or NULL */
} RunFiles;

static void
run_files_clear (RunFiles *in)
{
  g_clear_pointer (&in->files, g_ptr_array_unref);
  g_clear_pointer (&in->kinds, g_array_unref);
  g_clear_pointer (&in->in_folder, g_array_unref);
  g_clear_pointer (&in->reports, g_hash_table_unref);
  g_clear_pointer (&in->logs, g_hash_table_unref);
  g_clear_pointer (&in->warnings, g_ptr_array_unref);
  g_clear_pointer (&in->run_json, g_free);
  g_clear_pointer (&in->capture, ws_capture_record_free);
}

/* Lists @paths' files (a folder's in its place) into @in.  A digest opens
 * alone and is loaded here: then @digest is set and TRUE returned. */
static gboolean
gather_files (const char *const *paths, RunFiles *in, GCancellable *cancellable, WsRun **digest,
              GError **error)
{
  for (guint i = 0; paths[i] != NULL; i++)
    {
      WsInputKind kind = ws_input_detect (paths[i], error);
      gboolean folder = kind == WS_INPUT_FOLDER;

      if (kind == WS_INPUT_UNKNOWN)
        return FALSE;
      /* A digest is a job of its own, without events to join. */
      if (kind == WS_INPUT_DIGEST)
        {
          if (i > 0 || paths[1] != NULL)
            {
              g_set_error (error, WS_LOADER_ERROR, WS_LOADER_ERROR_FORMAT,
                           "%s: a digest opens alone, not with other files", paths[i]);
              return FALSE;
            }
          *digest = ws_digest_loader_open (paths[i], WS_DIGEST_CHECK_STAT, WS_DIGEST_READ_DEFAULT,
                                           cancellable, error);
          return *digest != NULL;
        }
      if (folder)
        {
          in->from_folder = TRUE;
          if (!ws_input_expand_folder (paths[i], in->files,
                                       in->run_json == NULL ? &in->run_json : NULL, error))
            return FALSE;
        }
      else
        g_ptr_array_add (in->files, g_strdup (paths[i]));
      while (in->in_folder->len < in->files->len)
        g_array_append_val (in->in_folder, folder);
    }

  if (!ws_input_check_distinct (in->files, error))
    return FALSE;
  for (guint i = 0; i < in->files->len; i++)
    {
      WsInputKind kind = ws_input_detect (g_ptr_array_index (in->files, i), error);

      if (kind == WS_INPUT_UNKNOWN)
        return FALSE;
      g_array_append_val (in->kinds, kind);
    }
  in->first_kind = g_array_index (in->kinds, WsInputKind, 0);
  if (in->run_json != NULL)
    {
      g_autoptr (GError) local = NULL;

      in->capture = ws_manifest_read (in->run_json, &local);
      if (in->capture == NULL)
        g_ptr_array_add (in->warnings, g_strdup (local->message));
    }
  return TRUE;
}

/* Finds the one export among @in's files and the ncu CSVs. */
static gboolean
pick_export (RunFiles *in, GPtrArray *ncu_paths, GArray *ncu_in_folder, GError **error)
{
  for (guint i = 0; i < in->files->len; i++)
    {
      const char *path = g_ptr_array_index (in->files, i);
      WsInputKind kind = g_array_index (in->kinds, WsInputKind, i);

      if (kind == WS_INPUT_NSYS_SQLITE || kind == WS_INPUT_NVPROF_SQLITE ||
          kind == WS_INPUT_NVPROF_TRACE || kind == WS_INPUT_KINETO)
        {
          /* A trace and an nsys export of one run are read together. */
          if (in->export != NULL && in->trace == NULL &&
              ((kind == WS_INPUT_KINETO && in->export_kind == WS_INPUT_NSYS_SQLITE) ||
               (kind == WS_INPUT_NSYS_SQLITE && in->export_kind == WS_INPUT_KINETO)))
            {
              in->trace = kind == WS_INPUT_KINETO ? path : in->export;
              in->export = kind == WS_INPUT_KINETO ? in->export : path;
              in->export_kind = WS_INPUT_NSYS_SQLITE;
              continue;
            }
          if (in->export != NULL)
            {
              const char *report = g_hash_table_lookup (in->reports, path);
              const char *other = g_hash_table_lookup (in->reports, in->export);

              g_set_error (error, WS_LOADER_ERROR, WS_LOADER_ERROR_FORMAT,
                           "%s: a run holds one nsys export, and %s is another; open it in a "
                           "window of its own",
                           report != NULL ? report : path, other != NULL ? other : in->export);
              return FALSE;
            }
          in->export = path;
          in->export_kind = kind;
        }
      if (kind == WS_INPUT_NCU_CSV)
        {
          g_ptr_array_add (ncu_paths, (gpointer) path);
          g_array_append_val (ncu_in_folder, g_array_index (in->in_folder, gboolean, i));
        }
    }
  return TRUE;
}

/* The profiled launches of the run: its ncu CSVs', or an nvprof metrics
 * log's.  %NULL without an error when there are none. */
static WsNcuResults *
read_profiled (RunFiles *in, GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) ncu_paths = g_ptr_array_new ();
  g_autoptr (GArray) ncu_in_folder = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr (WsNcuResults) ncu = NULL;

  if (!pick_export (in, ncu_paths, ncu_in_folder, error))
    return NULL;
  if (ncu_paths->len > 0)
    {
      g_autoptr (GError) local = NULL;

      ncu = load_ncu (ncu_paths, ncu_in_folder, in->warnings, cancellable, &local);
      if (ncu == NULL)
        {
          name_report (in->reports, local);
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      if (in->run_json != NULL)
        expect_manifest_kernels (ncu, in->run_json);
      else
        expect_beside_kernels (ncu);
    }
  if (!read_nvprof_logs (in->files, in->kinds, ncu != NULL, in->logs, &ncu, error))
    return NULL;
  return g_steal_pointer (&ncu);
}

/* @export's run with the PyTorch profiler trace of the same run
 * (ws_trace_join()); NULL with @error set when the trace cannot be read. */
static WsRun *
join_trace (WsRun *export, RunFiles *in, GCancellable *cancellable, GError **error)
{
  const char *report = g_hash_table_lookup (in->reports, in->export);
  WsRun *trace = ws_kineto_reader_load (in->trace, cancellable, NULL, NULL, error);

  if (trace == NULL)
    {
      ws_run_unref (export);
      return NULL;
    }
  return ws_trace_join (export, trace, report != NULL ? report : in->export, in->trace);
}

/* The run of the export, with @ncu matched to its kernels; or a run of the
 * profiled launches alone; or an empty run for the CSVs and profiles. */
static WsRun *
read_events (RunFiles *in, WsNcuResults *ncu, WsLoadFlags flags, GCancellable *cancellable,
             ReadingProgress *reading, GError **error)
{
  g_autoptr (GError) local = NULL;
  WsProgressFunc progress = reading->func != NULL ? reading_progress : NULL;
  WsRun *run;

  if (in->export == NULL && ncu != NULL)
    {
      run = ws_run_new_from_ncu (ncu);
      ws_ncu_results_compute_labels (ncu, NULL);
      return run;
    }
  if (in->export == NULL)
    {
      run = ws_run_new ();
      run->prov.kind =
        g_strdup (ws_input_kind_to_string (g_array_index (in->kinds, WsInputKind, 0)));
      return run;
    }

  if (in->export_kind == WS_INPUT_NVPROF_TRACE)
    run = ws_nvprof_trace_read (in->export, &local);
  else if (in->export_kind == WS_INPUT_KINETO)
    run = ws_kineto_reader_load (in->export, cancellable, progress, reading, &local);
  else if (in->export_kind == WS_INPUT_NVPROF_SQLITE)
    run = ws_nvprof_reader_load (in->export, flags, cancellable, progress, reading, &local);
  else
    run = ws_nsys_reader_load (in->export, flags, cancellable, progress, reading, &local);
  if (run != NULL && in->trace != NULL)
    run = join_trace (run, in, cancellable, &local);
  if (run == NULL)
    {
      name_report (in->reports, local);
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (ncu != NULL)
    ws_ncu_match_attach (run, ncu);
  if (!(flags & (WS_LOAD_LEAN | WS_LOAD_NO_RANKS)))
    ws_ranks_loader_attach_processes (run);
  return run;
}

/* What the run says of where it came from: its kind, its files, the
 * warnings of its inputs, the capture's record. */
static void
set_provenance (WsRun *run, RunFiles *in)
{
  WsInputKind first_kind = in->first_kind;
  GHashTableIter iter;
  gpointer report;

  for (guint i = 0; i < in->warnings->len; i++)
    ws_run_add_warning (run, "%s", (const char *) g_ptr_array_index (in->warnings, i));
  if (in->from_folder)
    {
      g_free (run->prov.kind);
      run->prov.kind = g_strdup ("capture-folder");
    }
  else if (is_report (first_kind))
    {
      /* The run is that of the report the user opened, read through its
       * conversion. */
      g_free (run->prov.kind);
      run->prov.kind = g_strdup (ws_input_kind_to_string (first_kind));
    }
  g_hash_table_iter_init (&iter, in->reports);
  while (g_hash_table_iter_next (&iter, NULL, &report))
    ws_run_add_file (run, report);
}

/* Adds what the other files give: stats CSVs' summaries, nvprof logs'
 * tables, CPU profiles, the capture's record. */
static gboolean
attach_others (WsRun *run, RunFiles *in, GCancellable *cancellable, GError **error)
{
  for (guint i = 0; i < in->files->len; i++)
    {
      const char *path = g_ptr_array_index (in->files, i);
      WsInputKind kind = g_array_index (in->kinds, WsInputKind, i);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (kind == WS_INPUT_NSYS_STATS_CSV && !attach_stats (run, path, error))
        return FALSE;
      if (kind == WS_INPUT_NVPROF_LOG)
        attach_nvprof_log (run, path, g_hash_table_lookup (in->logs, path));
      if (kind == WS_INPUT_CPU_PROFILE)
        {
          WsCpuProfile *profile = ws_cpu_reader_load (path, error);

          if (profile == NULL)
            return FALSE;
          g_ptr_array_add (run->cpu_profiles, profile);
          ws_run_add_file (run, path);
        }
    }

  if (in->run_json != NULL)
    ws_run_add_file (run, in->run_json);
  if (in->capture != NULL)
    {
      run->prov.capture_command = g_strdup (in->capture->cmd);
      run->prov.capture = g_steal_pointer (&in->capture);
    }
  return TRUE;
}

/**
 * ws_run_load:
 * @paths: (array zero-terminated=1): the files of one run: at most one nsys
 *   export or report, `nsys stats` CSVs, ncu CSVs or reports, or a capture
 *   folder
 * @progress: (nullable): gets a phrase to show ("Reading
 *   CUPTI_ACTIVITY_KIND_KERNEL", "Converting probe.nsys-rep with nsys
 *   export…") and the fraction of that step done
 *
 * Loads a run synchronously, on the calling thread.  Nsight reports are
 * converted first (ws_report_convert()).  The nsys export gives the
 * events; a stats CSV gives its summary where the export has no such
 * events (or there is no export); the ncu CSVs give the profiled launches,
 * matched to the export's kernels when there is one.  The run comes with
 * everything the pages and commands read (ws_run_get_summary() included),
 * whichever way it was loaded, and is not changed after.
 *
 * Returns: (transfer full): the run, or %NULL with @error set.
 */
WsRun *
ws_run_load (const char *const *paths, WsLoadFlags flags, GCancellable *cancellable,
             WsProgressFunc progress, gpointer progress_data, GError **error)
{
  RunFiles in = {
    .files = g_ptr_array_new_with_free_func (g_free),
    .kinds = g_array_new (FALSE, FALSE, sizeof (WsInputKind)),
    .in_folder = g_array_new (FALSE, FALSE, sizeof (gboolean)),
    .reports = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free),
    .logs =
      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref),
    .warnings = g_ptr_array_new_with_free_func (g_free),
    .export_kind = WS_INPUT_NSYS_SQLITE,
  };
  ReadingProgress reading = { progress, progress_data };
  g_autoptr (WsNcuResults) ncu = NULL;
  g_autoptr (GError) local = NULL;
  WsRun *digest = NULL;
  g_autoptr (WsRun) run = NULL;

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);

  if (!gather_files (paths, &in, cancellable, &digest, error) || digest != NULL)
    {
      run_files_clear (&in);
      return digest;
    }
  if (convert_reports (in.files, in.kinds, in.in_folder, in.reports, in.capture, in.warnings,
                       cancellable, progress, progress_data, error) &&
      ((ncu = read_profiled (&in, cancellable, &local)) != NULL || local == NULL))
    run = read_events (&in, ncu, flags, cancellable, &reading, &local);
  if (run != NULL)
    {
      set_provenance (run, &in);
      if (!attach_others (run, &in, cancellable, &local))
        g_clear_pointer (&run, ws_run_unref);
    }
  run_files_clear (&in);
  if (run == NULL)
    {
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (!(flags & WS_LOAD_NO_SUMMARIES))
    ws_stats_set_summaries (run);
  return g_steal_pointer (&run);
}

typedef struct
{
  char **paths;
  WsLoadFlags flags;
  WsLoadRelay *relay;
} LoadData;

static void
load_data_free (gpointer data)
{
  LoadData *load = data;

  g_strfreev (load->paths);
  if (load->relay != NULL)
    ws_load_relay_unref (load->relay);
  g_free (load);
}

typedef struct
{
  WsLoadRelay *relay;
  GAsyncReadyCallback callback;
  gpointer user_data;
} LoadDone;

/* The task's callback, on the caller's context: the progress data goes
 * before the caller hears of the end. */
static void
load_done (GObject *source, GAsyncResult *result, gpointer data)
{
  LoadDone *done = data;

  ws_load_relay_release (done->relay);
  if (done->callback != NULL)
    done->callback (source, result, done->user_data);
  ws_load_relay_unref (done->relay);
  g_free (done);
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  LoadData *load = task_data;
  GError *error = NULL;
  WsRun *run;

  run = ws_run_load ((const char *const *) load->paths, load->flags, cancellable,
                     load->relay != NULL ? ws_load_relay_progress : NULL, load->relay, &error);
  if (run == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, run, (GDestroyNotify) ws_run_unref);
}

/**
 * ws_run_load_async:
 * @progress: (nullable): called on the caller's thread-default main context
 * @progress_notify: (nullable): frees @progress_data on the caller's context when the
 *   load has ended, before @callback; no progress comes after it
 *
 * Loads a run on a worker thread.  The run is immutable when it arrives.
 */
void
ws_run_load_async (const char *const *paths, WsLoadFlags flags, GCancellable *cancellable,
                   WsProgressFunc progress, gpointer progress_data, GDestroyNotify progress_notify,
                   GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = NULL;
  LoadData *load;

  g_return_if_fail (paths != NULL && paths[0] != NULL);

  load = g_new0 (LoadData, 1);
  load->paths = g_strdupv ((char **) paths);
  load->flags = flags;
  if (progress != NULL)
    load->relay = ws_load_relay_new (progress, progress_data, progress_notify, cancellable);
  else if (progress_notify != NULL)
    progress_notify (progress_data);

  if (load->relay != NULL)
    {
      LoadDone *done = g_new0 (LoadDone, 1);

      done->relay = ws_load_relay_ref (load->relay);
      done->callback = callback;
      done->user_data = user_data;
      task = g_task_new (NULL, cancellable, load_done, done);
    }
  else
    task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, ws_run_load_async);
  g_task_set_task_data (task, load, load_data_free);
  g_task_run_in_thread (task, load_thread);
}

/**
 * ws_run_load_finish:
 *
 * Returns: (transfer full): the run, or %NULL with @error set.
 */
WsRun *
ws_run_load_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == ws_run_load_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
