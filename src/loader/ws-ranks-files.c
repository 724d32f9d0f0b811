/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-loader"
#include "config.h"

#include <glib/gi18n.h>
#include <glob.h>
#include <string.h>

#include "ws-input.h"
#include "ws-kineto-reader.h"
#include "ws-loader-error.h"
#include "ws-nsys-reader.h"
#include "ws-ranks-loader-private.h"
#include "ws-ranks-loader.h"
#include "ws-run-build.h"
#include "ws-run-loader.h"

/* Which files are one job's: the exports or traces given, a folder of
 * them or a glob, each of one kind; the launches a capture folder made;
 * whether paths are the ranks of a job at all. */

static gboolean
has_suffix_ci (const char *name, const char *suffix)
{
  gsize n = strlen (name), m = strlen (suffix);

  return n >= m && g_ascii_strcasecmp (name + n - m, suffix) == 0;
}

static gboolean
is_nsys_report (const char *name)
{
  return has_suffix_ci (name, ".nsys-rep") || has_suffix_ci (name, ".qdrep");
}

/* A PyTorch profiler trace, by its name and then its head. */
static gboolean
is_kineto_trace (const char *path)
{
  return (has_suffix_ci (path, ".json") || has_suffix_ci (path, ".json.gz")) &&
         ws_input_detect (path, NULL) == WS_INPUT_KINETO;
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* The nsys exports under @folder (and its folders, as a capture nests
 * them: every .sqlite file); a report only where no export of its name
 * lies beside it. */
static void
scan_folder (const char *folder, int depth, GPtrArray *out)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_paths);
  for (guint i = 0; i < names->len; i++)
    {
      const char *base = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (folder, base, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          if (depth > 0 && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
            scan_folder (path, depth - 1, out);
        }
      /* A damaged export is a rank too: reading it says what is wrong. */
      else if (has_suffix_ci (base, ".sqlite") || is_kineto_trace (path))
        g_ptr_array_add (out, g_steal_pointer (&path));
      else if (is_nsys_report (base))
        {
          g_autofree char *stem = g_strndup (path, strrchr (path, '.') - path);
          g_autofree char *export = g_strconcat (stem, ".sqlite", NULL);

          if (!g_file_test (export, G_FILE_TEST_EXISTS))
            g_ptr_array_add (out, g_steal_pointer (&path));
        }
    }
}

static gboolean
is_glob (const char *path)
{
  return strpbrk (path, "*?[") != NULL && !g_file_test (path, G_FILE_TEST_EXISTS);
}

/* The ranks of a job are all nsys exports (or reports) or all PyTorch
 * profiler traces: their clocks and processes are not read alike. */
static gboolean
check_one_kind (GPtrArray *files, GError **error)
{
  const char *trace = NULL, *export = NULL;

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);

      if (is_kineto_trace (path))
        trace = trace != NULL ? trace : path;
      else
        export = export != NULL ? export : path;
    }
  if (trace == NULL || export == NULL)
    return TRUE;
  g_set_error (error, WS_LOADER_ERROR, WS_LOADER_ERROR_FORMAT,
               _ ("%s is a PyTorch profiler trace and %s an nsys export: the ranks of a job are "
                  "all traces or all exports (one trace and one export of the same run open "
                  "together as one run)"),
               trace, export);
  return FALSE;
}

/* What a rank's file records before its events: an export's provenance
 * (ws_nsys_reader_probe()), a trace's header (ws_kineto_reader_probe());
 * a report's nothing yet. */
WsRun *
ws_ranks_probe_file (const char *path, GCancellable *cancellable, GError **error)
{
  if (has_suffix_ci (path, ".sqlite"))
    return ws_nsys_reader_probe (path, error);
  if (is_kineto_trace (path))
    return ws_kineto_reader_probe (path, cancellable, error);
  return ws_run_new ();
}

/* ws_ranks_loader_expand() without its check of the files' kinds. */
static GPtrArray *
expand_files (const char *const *paths, GError **error)
{
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) unique = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (paths != NULL, NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      const char *path = paths[i];

      if (is_glob (path))
        {
          glob_t matches = { 0 };

          if (glob (path, 0, NULL, &matches) == 0)
            for (gsize m = 0; m < matches.gl_pathc; m++)
              {
                const char *match = matches.gl_pathv[m];

                if (g_file_test (match, G_FILE_TEST_IS_DIR))
                  scan_folder (match, 3, out);
                else if (is_nsys_report (match) || is_kineto_trace (match) ||
                         (has_suffix_ci (match, ".sqlite") && ws_nsys_reader_sniff (match, NULL)))
                  g_ptr_array_add (out, g_strdup (match));
              }
          globfree (&matches);
          continue;
        }
      switch (ws_input_detect (path, error))
        {
          case WS_INPUT_UNKNOWN:
            return NULL;
          case WS_INPUT_FOLDER:
            scan_folder (path, 3, out);
            break;
          case WS_INPUT_NSYS_SQLITE:
          case WS_INPUT_NSYS_REPORT:
          case WS_INPUT_KINETO:
            g_ptr_array_add (out, g_strdup (path));
            break;
          case WS_INPUT_NSYS_STATS_CSV:
          case WS_INPUT_NCU_CSV:
          case WS_INPUT_NCU_REPORT:
          default:
            /* A rank's stats CSVs and ncu files stay out of the job's run. */
            break;
        }
    }
  for (guint i = 0; i < out->len; i++)
    if (g_hash_table_add (seen, g_ptr_array_index (out, i)))
      g_ptr_array_add (unique, g_strdup (g_ptr_array_index (out, i)));
  if (!ws_input_check_distinct (unique, error))
    return NULL;
  if (unique->len == 0)
    {
      g_set_error (error, WS_LOADER_ERROR, WS_LOADER_ERROR_NO_DATA,
                   "%s: no nsys export, report or PyTorch profiler trace to open as a rank",
                   paths[0]);
      return NULL;
    }
  return g_steal_pointer (&unique);
}

/**
 * ws_ranks_loader_expand:
 * @paths: (array zero-terminated=1): exports and reports, folders of them,
 *   or globs (`out/rank*.sqlite`, for a shell that did not expand them)
 *
 * Returns: (transfer full) (element-type filename): the exports, in the
 * order given (a folder's and a glob's sorted by name), or %NULL with
 * @error set when there is none
 */
GPtrArray *
ws_ranks_loader_expand (const char *const *paths, GError **error)
{
  g_autoptr (GPtrArray) files = NULL;

  g_return_val_if_fail (paths != NULL, NULL);

  files = expand_files (paths, error);
  if (files == NULL || !check_one_kind (files, error))
    return NULL;
  return g_steal_pointer (&files);
}

void
ws_launch_free (WsLaunch *launch)
{
  if (launch == NULL)
    return;
  g_free (launch->name);
  g_free (launch->path);
  g_ptr_array_unref (launch->exports);
  g_free (launch);
}

/* The capture target folder an export was written in
 * (OUT/<group>/<NAME>/nsys/X.sqlite, with run.json in OUT/<group>/<NAME>),
 * or NULL. */
static char *
capture_target_of (const char *export)
{
  g_autofree char *nsys = g_path_get_dirname (export);
  g_autofree char *nsys_name = g_path_get_basename (nsys);
  g_autofree char *target = NULL;
  g_autofree char *manifest = NULL;

  if (!g_str_equal (nsys_name, "nsys"))
    return NULL;
  target = g_path_get_dirname (nsys);
  manifest = g_build_filename (target, "run.json", NULL);
  return g_file_test (manifest, G_FILE_TEST_IS_REGULAR) ? g_steal_pointer (&target) : NULL;
}

/**
 * ws_ranks_loader_launches:
 * @paths: (array zero-terminated=1): as for ws_ranks_loader_expand()
 *
 * Splits the exports that @paths name into launches.  A job is one launch
 * (docs/ARCHITECTURE.md, "Past one machine"): the per-rank exports of one
 * capture target (`capture --per-rank`), or files given together outside any
 * capture (one `%q{RANK}` naming, one multi-process export).  The targets of a
 * capture folder are separate launches, however close their commands and
 * times: BERT and ViT captured one after the other are two runs, not two
 * ranks.
 *
 * Returns: (transfer full) (element-type WsLaunch): the launches, capture
 *   targets first in the order found, then the files of no capture; empty
 *   when @paths names no export
 */
GPtrArray *
ws_ranks_loader_launches (const char *const *paths)
{
  GPtrArray *launches = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_launch_free);
  g_autoptr (GPtrArray) exports = ws_ranks_loader_expand (paths, NULL);
  g_autoptr (GHashTable) by_target = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  WsLaunch *loose = NULL;

  g_return_val_if_fail (paths != NULL, launches);

  for (guint i = 0; exports != NULL && i < exports->len; i++)
    {
      const char *export = g_ptr_array_index (exports, i);
      g_autofree char *target = capture_target_of (export);
      WsLaunch *launch;

      if (target == NULL)
        {
          if (loose == NULL)
            {
              loose = g_new0 (WsLaunch, 1);
              loose->exports = g_ptr_array_new_with_free_func (g_free);
            }
          g_ptr_array_add (loose->exports, g_strdup (export));
          continue;
        }
      launch = g_hash_table_lookup (by_target, target);
      if (launch == NULL)
        {
          launch = g_new0 (WsLaunch, 1);
          launch->name = g_path_get_basename (target);
          launch->path = g_strdup (target);
          launch->exports = g_ptr_array_new_with_free_func (g_free);
          g_hash_table_insert (by_target, g_strdup (target), launch);
          g_ptr_array_add (launches, launch);
        }
      g_ptr_array_add (launch->exports, g_strdup (export));
    }
  if (loose != NULL)
    g_ptr_array_add (launches, loose);
  return launches;
}

/**
 * ws_ranks_loader_launch_names:
 * @launches: (element-type WsLaunch)
 *
 * Returns: (transfer full): "bert_inf, vit_inf": the launches' names, for
 *   a message
 */
char *
ws_ranks_loader_launch_names (GPtrArray *launches)
{
  g_autoptr (GString) out = g_string_new (NULL);

  for (guint i = 0; i < launches->len; i++)
    {
      const WsLaunch *launch = g_ptr_array_index (launches, i);

      if (out->len > 0)
        g_string_append (out, ", ");
      /* TRANSLATORS: the files of a job that lie outside any capture target */
      g_string_append (out, launch->name != NULL ? launch->name : _ ("other files"));
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * ws_ranks_loader_is_job:
 *
 * @probe: whether to read what the exports record (their environment):
 *   a few queries per file, for worker threads and the command line
 *
 * Whether files opened together are the ranks of one job rather than runs
 * to open apart: a folder or a glob that holds several exports of one
 * launch (ws_ranks_loader_launches()), or several exports whose names (or
 * recorded environments) number them.
 */
gboolean
ws_ranks_loader_is_job (const char *const *paths, gboolean probe)
{
  g_autoptr (GPtrArray) exports = NULL;
  g_autoptr (GPtrArray) probes = NULL;
  g_autoptr (WsRanks) ranks = NULL;
  gboolean folder_or_glob = FALSE;

  for (guint i = 0; paths[i] != NULL; i++)
    folder_or_glob =
      folder_or_glob || is_glob (paths[i]) || g_file_test (paths[i], G_FILE_TEST_IS_DIR);
  exports = expand_files (paths, NULL);
  if (exports == NULL || exports->len < 2)
    return FALSE;
  /* One trace and one export are one run seen by both (ws_run_load());
   * more files of both kinds are a job, which refuses them in one line. */
  if (!check_one_kind (exports, NULL))
    return exports->len > 2;
  /* Files of several launches are several runs, whatever folder holds
   * them. */
  {
    g_autoptr (GPtrArray) launches = ws_ranks_loader_launches (paths);

    if (launches->len > 1)
      return FALSE;
  }
  if (folder_or_glob)
    return TRUE;
  probes = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_run_unref);
  /* A trace's header is read either way: it is the file's first bytes. */
  for (guint i = 0; i < exports->len; i++)
    {
      const char *path = g_ptr_array_index (exports, i);
      WsRun *read = probe || is_kineto_trace (path) ? ws_ranks_probe_file (path, NULL, NULL) : NULL;

      g_ptr_array_add (probes, read != NULL ? read : ws_run_new ());
    }
  ranks = ws_ranks_new_for_files ((const char *const *) exports->pdata,
                                  (WsRun *const *) probes->pdata, exports->len);
  return ranks->source == WS_RANK_BY_NAME || ranks->source == WS_RANK_BY_ENVIRONMENT;
}
