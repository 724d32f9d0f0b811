/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-input"
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ws-compressed.h"
#include "ws-cpu-reader.h"
#include "ws-digest-io.h"
#include "ws-file.h"
#include "ws-input-nvprof.h"
#include "ws-input.h"
#include "ws-ncu-reader.h"
#include "ws-nsys-stats-reader.h"
#include "ws-reader-error.h"

#define HEAD_BYTES 8192

static gboolean
has_suffix_ci (const char *path, const char *suffix)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  return g_str_has_suffix (lower, suffix);
}

/* ---- sniffs, one per row ------------------------------------------------ */

static gboolean
sniff_folder (const WsInputHead *head, GError **error)
{
  return S_ISDIR (head->st.st_mode);
}

static gboolean
sniff_nsys_report (const WsInputHead *head, GError **error)
{
  return has_suffix_ci (head->path, ".nsys-rep") || has_suffix_ci (head->path, ".qdrep");
}

static gboolean
sniff_ncu_report (const WsInputHead *head, GError **error)
{
  return has_suffix_ci (head->path, ".ncu-rep");
}

/* A digest by its name or its SQLite application id: the digest reader
 * names what is wrong with a damaged one. */
static gboolean
sniff_digest (const WsInputHead *head, GError **error)
{
  return has_suffix_ci (head->path, ".wsdigest") || ws_digest_sniff (head->path);
}

static gboolean
is_sqlite (const WsInputHead *head)
{
  return head->len >= 15 && memcmp (head->head, "SQLite format 3", 15) == 0;
}

/* The last SQLite file asked about and the answer: a command asks of one
 * file several times (its arguments, then its loader), and each answer
 * opens the database and reads its schema. */
static struct
{
  GMutex lock;
  char *path;
  dev_t dev;
  ino_t ino;
  goffset size;
  gint64 mtime_ns;
  gboolean nvprof;
} memo;

static gint64
mtime_ns (const GStatBuf *st)
{
  return (gint64) st->st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st->st_mtim.tv_nsec;
}

/* An SQLite file: nvprof's layout, or the nsys reader says whether it is
 * an export. */
static gboolean
sniff_nvprof_sqlite (const WsInputHead *head, GError **error)
{
  const GStatBuf *st = &head->st;
  gboolean nvprof;

  if (!is_sqlite (head))
    return FALSE;
  g_mutex_lock (&memo.lock);
  if (memo.path != NULL && g_str_equal (memo.path, head->path) && memo.dev == st->st_dev &&
      memo.ino == st->st_ino && memo.size == (goffset) st->st_size &&
      memo.mtime_ns == mtime_ns (st))
    {
      nvprof = memo.nvprof;
      g_mutex_unlock (&memo.lock);
      return nvprof;
    }
  g_mutex_unlock (&memo.lock);

  nvprof = ws_nvprof_reader_sniff (head->path);

  g_mutex_lock (&memo.lock);
  g_free (memo.path);
  memo.path = g_strdup (head->path);
  memo.dev = st->st_dev;
  memo.ino = st->st_ino;
  memo.size = (goffset) st->st_size;
  memo.mtime_ns = mtime_ns (st);
  memo.nvprof = nvprof;
  g_mutex_unlock (&memo.lock);
  return nvprof;
}

static gboolean
sniff_nsys_sqlite (const WsInputHead *head, GError **error)
{
  return is_sqlite (head);
}

/* A PyTorch profiler trace: a JSON object whose head holds "traceEvents"
 * or "schemaVersion" and one of the keys Kineto writes in its header.
 * Chrome traces of other tools (Warpscope's own export among them) lack
 * the latter. */
static gboolean
is_kineto_text (const char *text)
{
  static const char *const keys[] = {
    "\"deviceProperties\"", "\"traceName\"",     "\"baseTimeNanoseconds\"",
    "\"distributedInfo\"",  "\"cupti_version\"", "\"trace_id\"",
  };

  while (g_ascii_isspace (*text))
    text++;
  if (*text != '{' ||
      (strstr (text, "\"traceEvents\"") == NULL && strstr (text, "\"schemaVersion\"") == NULL))
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    if (strstr (text, keys[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* Also gzip-compressed: its head is inflated as far as it goes. */
static gboolean
sniff_kineto (const WsInputHead *head, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;

  if (ws_compressed_sniff (head->head, head->len) == WS_COMPRESSION_GZIP)
    text = ws_compressed_inflate (head->path, WS_COMPRESSION_GZIP, head->head, head->len,
                                  4 * HEAD_BYTES, TRUE, &len, NULL);
  else
    text = g_strndup (head->head, head->len);
  return text != NULL && is_kineto_text (text);
}

static gboolean
sniff_nvprof_trace (const WsInputHead *head, GError **error)
{
  return ws_nvprof_trace_sniff (head->head, head->len);
}

static gboolean
sniff_nvprof_log (const WsInputHead *head, GError **error)
{
  return ws_nvprof_log_sniff (head->head, head->len);
}

static gboolean
sniff_nsys_stats (const WsInputHead *head, GError **error)
{
  return ws_nsys_stats_sniff (head->head, head->len);
}

static gboolean
sniff_ncu_csv (const WsInputHead *head, GError **error)
{
  return ws_ncu_reader_sniff (head->head, head->len);
}

/* Not SQLite by content but by name: the SQLite reader says what is wrong. */
static gboolean
sniff_sqlite_name (const WsInputHead *head, GError **error)
{
  return has_suffix_ci (head->path, ".sqlite") || has_suffix_ci (head->path, ".sqlite3") ||
         has_suffix_ci (head->path, ".db");
}

/* A Visual Profiler session or a binary file with an nvprof name. */
static gboolean
sniff_nvprof_other (const WsInputHead *head, GError **error)
{
  return ws_nvprof_reader_sniff_head (head->path, head->head, head->len, error);
}

static gboolean
sniff_cpu_profile (const WsInputHead *head, GError **error)
{
  return ws_cpu_reader_sniff (head->path, head->head, head->len, error) != WS_CPU_FORMAT_NONE;
}

static gboolean
sniff_compressed (const WsInputHead *head, GError **error)
{
  WsCompression compression = ws_compressed_sniff (head->head, head->len);

  if (compression == WS_COMPRESSION_NONE)
    return FALSE;
  g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
               "%s: a %s-compressed file that is not a CPU profile (Warpscope decompresses "
               "speedscope JSON, collapsed stacks and cProfile text; decompress other files "
               "first)",
               head->path, ws_compression_to_string (compression));
  return TRUE;
}

/* In the order they are asked: the first row whose sniff says yes wins. */
static const WsInputFormat formats[] = {
  { WS_INPUT_FOLDER, "capture-folder", WS_INPUT_LOAD_FOLDER, FALSE, FALSE, sniff_folder },
  { WS_INPUT_NSYS_REPORT, "nsys-rep", WS_INPUT_LOAD_EXPORT, TRUE, FALSE, sniff_nsys_report },
  { WS_INPUT_NCU_REPORT, "ncu-rep", WS_INPUT_LOAD_JOIN, TRUE, FALSE, sniff_ncu_report },
  { WS_INPUT_DIGEST, "warpscope-digest", WS_INPUT_LOAD_DIGEST, FALSE, TRUE, sniff_digest },
  { WS_INPUT_NVPROF_SQLITE, "nvprof-sqlite", WS_INPUT_LOAD_EXPORT, FALSE, TRUE,
    sniff_nvprof_sqlite },
  { WS_INPUT_NSYS_SQLITE, "nsys-sqlite", WS_INPUT_LOAD_EXPORT, FALSE, TRUE, sniff_nsys_sqlite },
  { WS_INPUT_KINETO, "kineto-json", WS_INPUT_LOAD_EXPORT, FALSE, TRUE, sniff_kineto },
  { WS_INPUT_NVPROF_TRACE, "nvprof-gpu-trace", WS_INPUT_LOAD_EXPORT, FALSE, TRUE,
    sniff_nvprof_trace },
  { WS_INPUT_NVPROF_LOG, "nvprof-log", WS_INPUT_LOAD_JOIN, FALSE, TRUE, sniff_nvprof_log },
  { WS_INPUT_NSYS_STATS_CSV, "nsys-stats-csv", WS_INPUT_LOAD_JOIN, FALSE, TRUE, sniff_nsys_stats },
  { WS_INPUT_NCU_CSV, "ncu-csv", WS_INPUT_LOAD_JOIN, FALSE, TRUE, sniff_ncu_csv },
  { WS_INPUT_NSYS_SQLITE, "nsys-sqlite", WS_INPUT_LOAD_EXPORT, FALSE, TRUE, sniff_sqlite_name },
  { WS_INPUT_UNKNOWN, "nvprof-other", WS_INPUT_LOAD_NONE, FALSE, TRUE, sniff_nvprof_other },
  { WS_INPUT_CPU_PROFILE, "cpu-profile", WS_INPUT_LOAD_JOIN, FALSE, TRUE, sniff_cpu_profile },
  { WS_INPUT_UNKNOWN, "compressed", WS_INPUT_LOAD_NONE, FALSE, TRUE, sniff_compressed },
};

/**
 * ws_input_formats:
 * @n_formats: (out): the number of rows
 *
 * Returns: (transfer none) (array length=n_formats): the table of inputs,
 *   in the order ws_input_detect() asks them
 */
const WsInputFormat *
ws_input_formats (gsize *n_formats)
{
  g_return_val_if_fail (n_formats != NULL, NULL);

  *n_formats = G_N_ELEMENTS (formats);
  return formats;
}

static const WsInputFormat *
format_of (WsInputKind kind)
{
  for (gsize i = 0; i < G_N_ELEMENTS (formats); i++)
    if (formats[i].kind == kind && kind != WS_INPUT_UNKNOWN)
      return &formats[i];
  return NULL;
}

const char *
ws_input_kind_to_string (WsInputKind kind)
{
  const WsInputFormat *format = format_of (kind);

  return format != NULL ? format->name : "unknown";
}

/**
 * ws_input_kind_is_export:
 *
 * Whether @kind is a trace of a whole run (an nsys export or report, an
 * nvprof export): one per run, the anchor its CSVs join.
 */
gboolean
ws_input_kind_is_export (WsInputKind kind)
{
  const WsInputFormat *format = format_of (kind);

  return format != NULL && format->load == WS_INPUT_LOAD_EXPORT;
}

/* Files a folder's run reads as they are: exports and what joins them,
 * Nsight reports (converted) and digests aside. */
static gboolean
kind_is_read_in_folder (WsInputKind kind)
{
  const WsInputFormat *format = format_of (kind);

  return format != NULL && !format->converts &&
         (format->load == WS_INPUT_LOAD_EXPORT || format->load == WS_INPUT_LOAD_JOIN);
}

/* The head, once, for the first row that reads it: an empty file is
 * refused here. */
static gboolean
read_head (WsInputHead *head, char *bytes, gsize size, GError **error)
{
  gssize got;

  if (!ws_file_check_not_empty (head->path, &head->st, error))
    return FALSE;
  got = ws_file_read_head (head->path, bytes, size, error);
  if (got < 0)
    return FALSE;
  head->head = bytes;
  head->len = (gsize) got;
  /* A UTF-8 byte order mark (CSV saved by a spreadsheet) is not content. */
  if (got > 3 && memcmp (bytes, "\xef\xbb\xbf", 3) == 0)
    {
      head->head += 3;
      head->len -= 3;
    }
  return TRUE;
}

/**
 * ws_input_detect:
 *
 * Tells what @path holds from its first bytes (and for the binary Nsight
 * reports, from its name): the first row of the table of inputs whose
 * sniff says yes.  A file that is none of the kinds Warpscope reads gets
 * an error naming it and what was expected.
 */
WsInputKind
ws_input_detect (const char *path, GError **error)
{
  char bytes[HEAD_BYTES];
  WsInputHead head = { path };

  if (!ws_file_stat (path, &head.st, error))
    return WS_INPUT_UNKNOWN;
  for (gsize i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      GError *refused = NULL;
      gboolean found;

      if (formats[i].reads_head && head.head == NULL &&
          !read_head (&head, bytes, sizeof bytes, error))
        return WS_INPUT_UNKNOWN;
      found = formats[i].sniff (&head, &refused);
      if (refused != NULL)
        {
          g_propagate_error (error, refused);
          return WS_INPUT_UNKNOWN;
        }
      if (found)
        return formats[i].kind;
    }

  /* Text whose first line does not end within the head: no header of a
   * kind Warpscope reads is that long (10^6 columns, a 1 MB line). */
  if (head.head != NULL && head.len == HEAD_BYTES - (gsize) (head.head - bytes) &&
      memchr (head.head, '\n', head.len) == NULL && memchr (head.head, '\0', head.len) == NULL)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                   "%s: line 1 is longer than %u bytes, longer than the header of any file "
                   "Warpscope reads",
                   path, (guint) HEAD_BYTES);
      return WS_INPUT_UNKNOWN;
    }
  g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
               "%s: not a file Warpscope reads (expected an nsys SQLite export, an nvprof "
               "export or log, a PyTorch profiler trace, an nsys stats or ncu CSV file, a CPU "
               "profile, or a capture folder)",
               path);
  return WS_INPUT_UNKNOWN;
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char **) a, *(char **) b);
}

static gboolean
is_report_name (const char *name)
{
  return has_suffix_ci (name, ".nsys-rep") || has_suffix_ci (name, ".qdrep") ||
         has_suffix_ci (name, ".ncu-rep");
}

static void
scan (const char *folder, int depth, GPtrArray *files, GPtrArray *reports, char **run_json)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);

      if (name[0] == '.')
        continue;
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          if (depth > 0 && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
            scan (path, depth - 1, files, reports, run_json);
          continue;
        }
      if (g_str_equal (name, "run.json"))
        {
          if (run_json != NULL && *run_json == NULL)
            *run_json = g_strdup (path);
          continue;
        }
      if (has_suffix_ci (name, ".sqlite") || has_suffix_ci (name, ".csv") ||
          has_suffix_ci (name, ".log") || has_suffix_ci (name, ".txt") ||
          has_suffix_ci (name, ".nvvp") || has_suffix_ci (name, ".nvprof") ||
          has_suffix_ci (name, ".json") || has_suffix_ci (name, ".gz") ||
          has_suffix_ci (name, ".xz"))
        g_ptr_array_add (files, g_steal_pointer (&path));
      else if (is_report_name (name))
        g_ptr_array_add (reports, g_steal_pointer (&path));
    }
}

/**
 * ws_input_expand_folder:
 * @files: (element-type filename): gets the files of the run in @folder
 * @run_json: (out) (optional): the capture's manifest, when there is one
 *
 * A capture folder made by the launcher (`NAME/{nsys,ncu}/…` with a
 * run.json), or any folder with an export and CSVs side by side.  A group
 * folder of several captures is refused with a message listing them.
 *
 * Nsight reports are taken only in place of what their conversion gives:
 * the `.nsys-rep` when the folder holds no nsys SQLite export, the
 * `.ncu-rep` files when it holds no ncu CSV.  A capture keeps its reports
 * beside their exports, which win, so that opening it runs no tool.
 */
gboolean
ws_input_expand_folder (const char *folder, GPtrArray *files, char **run_json, GError **error)
{
  g_autoptr (GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) reports = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) kept = g_ptr_array_new_with_free_func (g_free);
  guint exports = 0;
  guint ncu_csvs = 0;

  scan (folder, 3, found, reports, run_json);
  g_ptr_array_sort (found, compare_paths);
  g_ptr_array_sort (reports, compare_paths);

  for (guint i = 0; i < found->len; i++)
    {
      const char *path = g_ptr_array_index (found, i);
      WsInputKind kind = ws_input_detect (path, NULL);

      if (kind_is_read_in_folder (kind))
        {
          exports += ws_input_kind_is_export (kind);
          ncu_csvs += kind == WS_INPUT_NCU_CSV;
          g_ptr_array_add (kept, g_strdup (path));
        }
    }
  for (guint i = 0; i < reports->len; i++)
    {
      const char *path = g_ptr_array_index (reports, i);
      gboolean is_nsys = !has_suffix_ci (path, ".ncu-rep");

      if (is_nsys ? exports == 0 : ncu_csvs == 0)
        g_ptr_array_add (kept, g_strdup (path));
    }
  if (exports == 0)
    for (guint i = 0; i < reports->len; i++)
      exports += !has_suffix_ci (g_ptr_array_index (reports, i), ".ncu-rep");

  if (kept->len == 0)
    {
      g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_NO_DATA,
                   "%s: the folder holds no nsys export, nsys stats CSV, ncu CSV or Nsight report",
                   folder);
      return FALSE;
    }
  if (exports > 1)
    {
      g_set_error (
        error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
        "%s: the folder holds %u nsys exports or reports; open the folder of one capture", folder,
        exports);
      return FALSE;
    }
  for (guint i = 0; i < kept->len; i++)
    g_ptr_array_add (files, g_strdup (g_ptr_array_index (kept, i)));
  return TRUE;
}

static char *
stem (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  char *dot = strrchr (base, '.');

  if (dot != NULL)
    *dot = '\0';
  return g_steal_pointer (&base);
}

static gsize
common_prefix (const char *a, const char *b)
{
  gsize n = 0;

  while (a[n] != '\0' && a[n] == b[n])
    n++;
  return n;
}

/* Whether @report's own export (`X.sqlite` for `X.nsys-rep`) is among
 * @paths: a capture keeps both, and the export is what to read. */
static gboolean
has_own_export (const char *report, const char *const *paths)
{
  g_autofree char *dir = g_path_get_dirname (report);
  g_autofree char *report_stem = stem (report);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_autofree char *other_dir = NULL;
      g_autofree char *other_stem = NULL;

      if (!has_suffix_ci (paths[i], ".sqlite"))
        continue;
      other_dir = g_path_get_dirname (paths[i]);
      other_stem = stem (paths[i]);
      if (g_str_equal (dir, other_dir) && g_str_equal (report_stem, other_stem))
        return TRUE;
    }
  return FALSE;
}

/**
 * ws_input_group_runs:
 *
 * Splits the files of one "open" into runs: each nsys export (or report)
 * and each folder is a run of its own; a CSV or an ncu report joins the
 * export in its folder whose name shares the longest prefix with it; CSVs
 * with no export to join form one run together.  With at most one export
 * and no folder, all the files are one run.  An nsys report opened with
 * its own export is left out: the export is read.
 *
 * Returns: (transfer full) (element-type GStrv): the runs, each a
 * NULL-terminated array of paths.
 */
GPtrArray *
ws_input_group_runs (const char *const *paths)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr (GPtrArray) anchors = g_ptr_array_new (); /* the export of each run, or NULL */
  g_autoptr (GPtrArray) loose = g_ptr_array_new ();
  GPtrArray *leftover = NULL;

  for (guint i = 0; paths[i] != NULL; i++)
    {
      WsInputKind kind = ws_input_detect (paths[i], NULL);

      if (kind == WS_INPUT_NSYS_REPORT && has_own_export (paths[i], paths))
        continue;
      if (kind == WS_INPUT_FOLDER || ws_input_kind_is_export (kind) || kind == WS_INPUT_UNKNOWN)
        {
          GPtrArray *run = g_ptr_array_new_with_free_func (g_free);
          gboolean anchor = ws_input_kind_is_export (kind);

          g_ptr_array_add (run, g_strdup (paths[i]));
          g_ptr_array_add (runs, run);
          g_ptr_array_add (anchors, anchor ? (gpointer) paths[i] : NULL);
        }
      else
        g_ptr_array_add (loose, (gpointer) paths[i]);
    }

  for (guint i = 0; i < loose->len; i++)
    {
      const char *csv = g_ptr_array_index (loose, i);
      g_autofree char *csv_dir = g_path_get_dirname (csv);
      g_autofree char *csv_stem = stem (csv);
      GPtrArray *best = NULL;
      gsize best_len = 0;
      guint n_exports = 0;

      for (guint r = 0; r < runs->len; r++)
        if (g_ptr_array_index (anchors, r) != NULL)
          n_exports++;
      for (guint r = 0; r < runs->len; r++)
        {
          const char *anchor = g_ptr_array_index (anchors, r);
          g_autofree char *dir = NULL;
          g_autofree char *anchor_stem = NULL;
          gsize len;

          if (anchor == NULL)
            continue;
          dir = g_path_get_dirname (anchor);
          anchor_stem = stem (anchor);
          len = common_prefix (anchor_stem, csv_stem) + (g_str_equal (dir, csv_dir) ? 1000 : 0);
          if (n_exports == 1 || len > best_len)
            {
              best = g_ptr_array_index (runs, r);
              best_len = len;
            }
        }
      if (best == NULL)
        {
          if (leftover == NULL)
            {
              leftover = g_ptr_array_new_with_free_func (g_free);
              g_ptr_array_add (runs, leftover);
              g_ptr_array_add (anchors, NULL);
            }
          best = leftover;
        }
      g_ptr_array_add (best, g_strdup (csv));
    }

  for (guint r = 0; r < runs->len; r++)
    g_ptr_array_add (g_ptr_array_index (runs, r), NULL);
  return runs;
}

/**
 * ws_input_split_side:
 * @arg: one side of a comparison as given: a file, a folder, or files
 *   joined by commas ("run.sqlite,run_ncu_raw.csv")
 *
 * The files of one run.  A path that exists is taken whole, so that a file
 * whose name holds a comma still opens; otherwise @arg is split at its
 * commas (empty parts dropped), and the loader reports any part that does
 * not exist.
 *
 * Returns: (transfer full) (array zero-terminated=1): the paths
 */
char **
ws_input_split_side (const char *arg)
{
  g_auto (GStrv) parts = NULL;
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (arg != NULL, NULL);

  if (g_file_test (arg, G_FILE_TEST_EXISTS) || strchr (arg, ',') == NULL)
    {
      char *whole[] = { (char *) arg, NULL };

      return g_strdupv (whole);
    }
  parts = g_strsplit (arg, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (parts[i][0] != '\0')
      g_ptr_array_add (paths, g_strdup (parts[i]));
  if (paths->len == 0)
    g_ptr_array_add (paths, g_strdup (arg));
  g_ptr_array_add (paths, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&paths), FALSE);
}

/**
 * ws_input_check_distinct:
 * @paths: (element-type filename): the files of one load
 *
 * The same file given twice — by two names, or a hard link to it — would
 * be read twice (two identical ranks, every kernel counted twice).
 *
 * Returns: %FALSE with @error naming both when two of @paths are one file
 *   (the same device and inode)
 */
gboolean
ws_input_check_distinct (GPtrArray *paths, GError **error)
{
  g_autoptr (GHashTable) seen =
    g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);

  g_return_val_if_fail (paths != NULL, FALSE);

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      guint64 id[2];
      GStatBuf st;
      GBytes *key;
      gpointer first;

      if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode))
        continue;
      id[0] = (guint64) st.st_dev;
      id[1] = (guint64) st.st_ino;
      key = g_bytes_new (id, sizeof id);
      if (g_hash_table_lookup_extended (seen, key, NULL, &first))
        {
          g_bytes_unref (key);
          g_set_error (error, WS_READER_ERROR, WS_READER_ERROR_FORMAT,
                       _ ("%1$s: the same file as %2$s (given twice, or a link to it)"), path,
                       (const char *) first);
          return FALSE;
        }
      g_hash_table_insert (seen, key, (gpointer) path);
    }
  return TRUE;
}
