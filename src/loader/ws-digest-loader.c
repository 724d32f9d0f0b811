/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-digest"
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ws-digest-export.h"
#include "ws-digest-io.h"
#include "ws-digest-loader.h"
#include "ws-rank-measure.h"
#include "ws-digest-merge.h"
#include "ws-digest-rank.h"
#include "ws-input.h"
#include "ws-file.h"
#include "ws-loader-error.h"
#include "ws-ranks-loader.h"
#include "ws-run-build.h"
#include "ws-run-loader.h"

/* The part of an export its checksum covers: enough to tell a rewritten
 * export from the one digested, cheap on a cluster's file system. */
#define CHECKSUM_BYTES (1024 * 1024)

typedef struct
{
  char *path;
  gint64 size;
} Listed;

static int
compare_listed (gconstpointer a, gconstpointer b)
{
  const Listed *x = a, *y = b;

  if (x->size != y->size)
    return x->size > y->size ? -1 : 1;
  return g_strcmp0 (x->path, y->path);
}

/**
 * ws_digest_loader_list:
 * @paths: (array zero-terminated=1): exports, folders of them, or globs
 *
 * The exports to digest, largest first (so that the longest work starts
 * first and no process is left with a large export at the end).  A file
 * named on the command line is kept whatever it holds: digesting it says
 * what is wrong.
 *
 * Returns: (transfer full) (element-type filename): the paths, or %NULL
 * with @error set when there is none
 */
GPtrArray *
ws_digest_loader_list (const char *const *paths, GError **error)
{
  g_autoptr (GArray) listed = g_array_new (FALSE, FALSE, sizeof (Listed));
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *out;

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);

  /* One file given twice (or through a link) is refused, as `ranks A A`
   * is: it would make one rank where two were asked for.  A folder or a
   * glob that finds a file given too keeps it once. */
  {
    g_autoptr (GPtrArray) files = g_ptr_array_new ();

    for (guint i = 0; paths[i] != NULL; i++)
      if (g_file_test (paths[i], G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (files, (gpointer) paths[i]);
    if (!ws_input_check_distinct (files, error))
      return NULL;
  }

  for (guint i = 0; paths[i] != NULL; i++)
    {
      const char *one[] = { paths[i], NULL };
      g_autoptr (GPtrArray) found = NULL;

      if (g_file_test (paths[i], G_FILE_TEST_IS_DIR) || !g_file_test (paths[i], G_FILE_TEST_EXISTS))
        {
          /* A folder, a glob, or a file that is not there (which the
           * expansion names). */
          found = ws_ranks_loader_expand (one, error);
          if (found == NULL)
            return NULL;
        }
      else
        {
          found = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (found, g_strdup (paths[i]));
        }
      for (guint f = 0; f < found->len; f++)
        {
          const char *path = g_ptr_array_index (found, f);
          char *absolute = g_canonicalize_filename (path, NULL);
          Listed item = { g_strdup (path), 0 };
          GStatBuf st;

          if (!g_hash_table_add (seen, absolute))
            {
              g_free (item.path);
              continue;
            }
          if (g_stat (path, &st) == 0)
            item.size = st.st_size;
          g_array_append_val (listed, item);
        }
    }
  g_array_sort (listed, compare_listed);
  out = g_ptr_array_new_full (listed->len, g_free);
  for (guint i = 0; i < listed->len; i++)
    g_ptr_array_add (out, g_array_index (listed, Listed, i).path);
  if (!ws_input_check_distinct (out, error))
    g_clear_pointer (&out, g_ptr_array_unref);
  return out;
}

/**
 * ws_digest_loader_checksum:
 *
 * Returns: (transfer full): the SHA-256 of the first MiB of @path, in hex,
 * or %NULL with @error set
 */
char *
ws_digest_loader_checksum (const char *path, GError **error)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree guint8 *buffer = g_malloc (CHECKSUM_BYTES);
  gssize got = ws_file_read_head (path, buffer, CHECKSUM_BYTES, error);

  if (got < 0)
    return NULL;
  g_checksum_update (sum, buffer, got);
  return g_strdup (g_checksum_get_string (sum));
}

static void
set_file_facts (WsDigestRank *rank, const char *path)
{
  GStatBuf st;

  rank->path = g_canonicalize_filename (path, NULL);
  rank->file = g_strdup (path);
  if (g_stat (path, &st) == 0)
    {
      rank->size = st.st_size;
      rank->mtime =
        (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec;
    }
  rank->checksum = ws_digest_loader_checksum (path, NULL);
}

static WsDigestRank *
digest_process (const WsRun *run, guint32 pid)
{
  WsDigestRank *rank = ws_digest_rank_compute (run, pid);

  rank->rank.gpus = ws_ranks_loader_gpus_of (run, pid);
  return rank;
}

/**
 * ws_digest_loader_digest_file:
 * @alone: whether @path is the only export of the digest: then an export
 *   of several processes that ran on a GPU (torchrun or mpirun under one
 *   `nsys profile`) gives one rank per process, as `ranks` makes it a job
 *   of those processes (ws_ranks_new_for_processes()); else it gives the
 *   rank of its main process (ws_ranks_loader_main_pid())
 *
 * Reads one export whole and computes its part of the digest.  An export
 * that cannot be read gives a rank with its error (one line naming the
 * file), not a failure: the digest lists it.
 *
 * Returns: (transfer full) (nullable) (element-type WsDigestRank): the
 * ranks, one or more, or %NULL when cancelled
 */
GPtrArray *
ws_digest_loader_digest_file (const char *path, gboolean alone, GCancellable *cancellable)
{
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (GTimer) timer = g_timer_new ();
  g_autoptr (WsRun) run = NULL;
  g_autoptr (WsRanks) processes = NULL;
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_digest_rank_free);

  g_return_val_if_fail (path != NULL, NULL);

  run = ws_run_load (paths, WS_LOAD_ALL | WS_LOAD_NO_RANKS | WS_LOAD_NO_SUMMARIES, cancellable,
                     NULL, NULL, &error);
  if (g_cancellable_is_cancelled (cancellable))
    {
      g_ptr_array_unref (out);
      return NULL;
    }
  if (run == NULL)
    {
      WsDigestRank *rank = ws_digest_rank_new ();

      rank->error = g_strdup (error->message);
      g_strdelimit (rank->error, "\n\r", ' ');
      g_ptr_array_add (out, rank);
    }
  else if (alone && (processes = ws_ranks_new_for_processes (run)) != NULL)
    /* Numbered here as `ranks` numbers them; ws_digest_loader_finish()
     * numbers them again from what the digest keeps, by the same rule. */
    for (guint i = 0; i < ws_ranks_get_n (processes); i++)
      {
        const WsRank *numbered = ws_ranks_get (processes, i);
        WsDigestRank *rank = digest_process (run, numbered->pid);

        rank->rank.rank = numbered->rank;
        g_ptr_array_add (out, rank);
      }
  else
    g_ptr_array_add (out, digest_process (run, ws_ranks_loader_main_pid (run)));
  for (guint i = 0; i < out->len; i++)
    {
      WsDigestRank *rank = g_ptr_array_index (out, i);

      set_file_facts (rank, path);
      rank->seconds = g_timer_elapsed (timer, NULL) / out->len;
      for (guint w = 0; run != NULL && w < run->prov.warnings->len; w++)
        g_ptr_array_add (rank->warnings, g_strdup (g_ptr_array_index (run->prov.warnings, w)));
    }
  return out;
}

/* @path relative to @folder (both absolute): "rank3.sqlite",
 * "../run42/rank3.sqlite". */
static char *
relative_to (const char *path, const char *folder)
{
  g_auto (GStrv) a = g_strsplit (path, "/", -1);
  g_auto (GStrv) b = g_strsplit (folder, "/", -1);
  g_autoptr (GString) out = g_string_new (NULL);
  guint common = 0, na = g_strv_length (a), nb = g_strv_length (b);

  /* The last part of @path is its name, never a folder in common. */
  while (common + 1 < na && common < nb && g_str_equal (a[common], b[common]))
    common++;
  for (guint i = common; i < nb; i++)
    if (*b[i] != '\0')
      g_string_append (out, "../");
  for (guint i = common; i < na; i++)
    {
      g_string_append (out, a[i]);
      if (i + 1 < na)
        g_string_append_c (out, '/');
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static int
compare_ranks (gconstpointer a, gconstpointer b)
{
  const WsDigestRank *x = *(WsDigestRank *const *) a, *y = *(WsDigestRank *const *) b;

  if ((x->error != NULL) != (y->error != NULL))
    return x->error != NULL ? 1 : -1;
  if (x->error == NULL && x->rank.rank != y->rank.rank)
    return x->rank.rank < y->rank.rank ? -1 : 1;
  return g_strcmp0 (x->path, y->path);
}

/**
 * ws_digest_loader_finish:
 * @digest: a digest whose ranks are each digested (in any order)
 * @output: the file it will be written to
 *
 * Numbers the ranks and places them on one clock from what their exports
 * record (ws_ranks_new_for_files(), as when the exports are opened
 * together), makes their paths relative to @output's folder, and sorts
 * them: by rank number, then the files that could not be digested.  The
 * ranks of one export of several processes are numbered by pid, on the
 * export's one clock (ws_ranks_new_for_pids(), as `ranks` numbers them).
 */
void
ws_digest_loader_finish (WsDigest *digest, const char *output)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new ();
  g_autoptr (GPtrArray) probes = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_run_unref);
  g_autoptr (GHashTable) by_file = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) by_pid = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) pids = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (WsRanks) ranks = NULL;
  gboolean one_export = TRUE;
  g_autofree char *absolute = g_canonicalize_filename (output, NULL);
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();

  g_return_if_fail (digest != NULL && output != NULL);

  g_free (digest->folder);
  digest->folder = g_path_get_dirname (absolute);
  for (guint i = 0; i < digest->ranks->len; i++)
    {
      WsDigestRank *rank = g_ptr_array_index (digest->ranks, i);
      WsRun *probe;

      g_free (rank->file);
      rank->file = relative_to (rank->path, digest->folder);
      if (rank->error != NULL)
        continue;
      /* What numbering reads of an export, as the export recorded it. */
      probe = ws_run_new ();
      probe->prov.target_env = g_strdupv (rank->env);
      probe->prov.target_command = g_strdup (rank->command);
      probe->prov.thread_rank_name = g_strdup (rank->thread_rank_name);
      probe->prov.host = g_strdup (rank->rank.host);
      probe->prov.session_start_utc_ns = rank->rank.session_start;
      g_ptr_array_add (probes, probe);
      g_ptr_array_add (files, rank->path);
      g_hash_table_insert (by_file, rank->path, rank);
      g_hash_table_insert (by_pid, GUINT_TO_POINTER (rank->rank.file_pid + 1), rank);
      g_array_append_val (pids, rank->rank.file_pid);
      one_export = one_export && g_str_equal (rank->path, g_ptr_array_index (files, 0));
    }
  /* Several ranks of one export: its processes (ws_digest_loader_digest_file()). */
  one_export = one_export && files->len > 1 && g_hash_table_size (by_pid) == files->len;

  if (one_export)
    {
      WsRun *probe = g_ptr_array_index (probes, 0);

      g_ptr_array_add (probe->prov.files, g_strdup (g_ptr_array_index (files, 0)));
      for (guint i = 0; i < digest->ranks->len; i++)
        {
          const WsDigestRank *rank = g_ptr_array_index (digest->ranks, i);
          WsProcess process = { rank->rank.file_pid, g_strdup (rank->rank.process) };

          if (rank->error == NULL)
            g_array_append_val (probe->prov.processes, process);
        }
      ranks = ws_ranks_new_for_pids (probe, (const guint32 *) pids->data, pids->len);
    }
  else if (files->len > 0)
    ranks = ws_ranks_new_for_files ((const char *const *) files->pdata,
                                    (WsRun *const *) probes->pdata, files->len);
  if (ranks != NULL)
    {
      for (guint i = 0; i < ranks->ranks->len; i++)
        {
          const WsRank *numbered = &g_array_index (ranks->ranks, WsRank, i);
          WsDigestRank *rank =
            one_export ? g_hash_table_lookup (by_pid, GUINT_TO_POINTER (numbered->pid + 1))
                       : g_hash_table_lookup (by_file, numbered->file);

          g_assert (rank != NULL);
          rank->rank.rank = numbered->rank;
          rank->rank.offset = numbered->offset;
          rank->rank.world_size = numbered->world_size;
          g_free (rank->rank.file);
          rank->rank.file = g_strdup (rank->path);
          g_free (rank->rank.how);
          rank->rank.how = g_strdup (numbered->how);
          g_free (rank->rank.job);
          rank->rank.job = g_strdup (numbered->job);
          rank->figures->rank = numbered->rank;
          rank->figures->offset = numbered->offset;
          g_free (rank->figures->file);
          rank->figures->file = g_strdup (rank->path);
        }
      digest->source = ranks->source;
      digest->aligned = ranks->aligned;
      digest->spread = ranks->spread;
      g_free (digest->job_name);
      digest->job_name = g_strdup (ranks->job_name);
      for (guint i = 0; i < ranks->notes->len; i++)
        g_ptr_array_add (digest->notes, g_strdup (g_ptr_array_index (ranks->notes, i)));
    }
  g_ptr_array_sort (digest->ranks, compare_ranks);

  g_free (digest->created);
  digest->created = g_date_time_format_iso8601 (now);
  g_free (digest->tool);
  digest->tool = g_strdup ("warpscope-cli " PACKAGE_VERSION);
  g_free (digest->host);
  digest->host = g_strdup (g_get_host_name ());

  /* What the window shows first, merged once here rather than at each
   * opening from every rank's rows. */
  for (guint kind = 0; kind < WS_N_SUMMARY_KINDS; kind++)
    {
      g_clear_pointer (&digest->job_summaries[kind], ws_summary_unref);
      digest->job_summaries[kind] = ws_digest_merge_summary (digest, kind, NULL, 0, NULL);
      digest->job_rows_left_out[kind] = 0;
      digest->job_total_left_out[kind] = 0;
      for (guint i = 0; i < digest->ranks->len; i++)
        {
          const WsDigestRank *rank = g_ptr_array_index (digest->ranks, i);

          if (rank->error != NULL)
            continue;
          digest->job_rows_left_out[kind] += rank->rows_left_out[kind];
          digest->job_total_left_out[kind] += rank->total_left_out[kind];
        }
    }
  digest->job_summaries_known = TRUE;
}

typedef struct
{
  GPtrArray *paths;
  GPtrArray **results; /* per path: its ranks */
  GCancellable *cancellable;
  GMutex lock;
  guint done;
  WsProgressFunc progress;
  gpointer progress_data;
} Build;

static void
build_one (gpointer data, gpointer user_data)
{
  Build *build = user_data;
  guint index = GPOINTER_TO_UINT (data) - 1;
  const char *path = g_ptr_array_index (build->paths, index);
  GPtrArray *ranks;

  if (g_cancellable_is_cancelled (build->cancellable))
    return;
  ranks = ws_digest_loader_digest_file (path, build->paths->len == 1, build->cancellable);
  g_mutex_lock (&build->lock);
  build->results[index] = ranks;
  build->done++;
  if (build->progress != NULL)
    {
      g_autofree char *base = g_path_get_basename (path);
      /* TRANSLATORS: the export just digested */
      g_autofree char *what = g_strdup_printf (_ ("Digested %s"), base);

      build->progress ((double) build->done / build->paths->len, what, build->progress_data);
    }
  g_mutex_unlock (&build->lock);
}

/**
 * ws_digest_loader_build:
 * @threads: how many exports to read at a time (0: one per processor)
 * @output: the file the digest will be written to (paths are made relative
 *   to its folder)
 * @progress: (nullable): called from the worker threads, one at a time
 *
 * Digests a job's exports with local threads, largest first.
 *
 * Returns: (transfer full): the digest, or %NULL with @error set (no
 * export found, or cancelled)
 */
WsDigest *
ws_digest_loader_build (const char *const *paths, guint threads, const char *output,
                        GCancellable *cancellable, WsProgressFunc progress, gpointer progress_data,
                        GError **error)
{
  g_autoptr (GPtrArray) list = ws_digest_loader_list (paths, error);
  g_autoptr (GTimer) timer = g_timer_new ();
  g_autoptr (WsDigest) digest = NULL;
  Build build = { 0 };
  GThreadPool *pool;

  if (list == NULL)
    return NULL;
  if (threads == 0)
    threads = MAX (g_get_num_processors (), 1);
  threads = MIN (threads, list->len);
  build.paths = list;
  build.results = g_new0 (GPtrArray *, list->len);
  build.cancellable = cancellable;
  build.progress = progress;
  build.progress_data = progress_data;
  g_mutex_init (&build.lock);
  pool = g_thread_pool_new (build_one, &build, (gint) threads, FALSE, NULL);
  for (guint i = 0; i < list->len; i++)
    g_thread_pool_push (pool, GUINT_TO_POINTER (i + 1), NULL);
  g_thread_pool_free (pool, FALSE, TRUE);
  g_mutex_clear (&build.lock);

  digest = ws_digest_new ();
  for (guint i = 0; i < list->len; i++)
    if (build.results[i] != NULL)
      {
        g_ptr_array_extend_and_steal (digest->ranks, build.results[i]);
        build.results[i] = NULL;
      }
  g_free (build.results);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  digest->method = g_strdup_printf ("threads %u", threads);
  ws_digest_loader_finish (digest, output);
  digest->seconds = g_timer_elapsed (timer, NULL);
  return g_steal_pointer (&digest);
}

/**
 * ws_digest_loader_check_export:
 * @path: where the rank's export is now
 *
 * Returns: (transfer full) (nullable): what changed in the export since
 * the digest was made (one line naming it), or %NULL when nothing that
 * @check looks at did
 */
char *
ws_digest_loader_check_export (const WsDigestRank *rank, const char *path, WsDigestCheck check)
{
  g_autoptr (GPtrArray) changes = g_ptr_array_new_with_free_func (g_free);
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    return g_strdup_printf (_ ("%s: cannot be read: %s"), path, g_strerror (errno));
  if ((check & WS_DIGEST_CHECK_STAT) && st.st_size != rank->size)
    g_ptr_array_add (changes, g_strdup_printf (_ ("its size was %lld bytes and is %lld"),
                                               (long long) rank->size, (long long) st.st_size));
  if ((check & WS_DIGEST_CHECK_STAT) &&
      (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec !=
        rank->mtime)
    g_ptr_array_add (changes, g_strdup (_ ("it was modified")));
  if ((check & WS_DIGEST_CHECK_CHECKSUM) && rank->checksum != NULL)
    {
      g_autofree char *sum = ws_digest_loader_checksum (path, NULL);

      if (g_strcmp0 (sum, rank->checksum) != 0)
        g_ptr_array_add (changes, g_strdup (_ ("its first MiB differs")));
    }
  if (changes->len == 0)
    return NULL;
  g_ptr_array_add (changes, NULL);
  {
    g_autofree char *list = g_strjoinv ("; ", (char **) changes->pdata);

    /* TRANSLATORS: an export, its rank, then what changed ("its size was … and is …; it was
     * modified") */
    return g_strdup_printf (_ ("%s (rank %u) changed since the digest was made: %s"), path,
                            rank->rank.rank, list);
  }
}

static gboolean
selected (guint rank, const guint *select, guint n_select)
{
  if (select == NULL)
    return TRUE;
  for (guint i = 0; i < n_select; i++)
    if (select[i] == rank)
      return TRUE;
  return FALSE;
}

/**
 * ws_digest_loader_run_new:
 * @select: (array length=n_select) (nullable): the ranks to keep, or
 *   %NULL for all; a choice needs the ranks' own summaries
 *   (@digest->rank_summaries_read)
 * @check: what to compare of the exports that can be found (their
 *   differences become the run's warnings)
 *
 * A run of the digest's ranks without events: its ranks with their
 * figures, its summaries merged from theirs (for every rank, as the
 * digest keeps them merged), its findings theirs
 * (ws_findings_compute() reads them from run->digest).  Files that could
 * not be digested and exports that changed are the run's warnings.
 *
 * Returns: (transfer full): the run
 */
WsRun *
ws_digest_loader_run_new (WsDigest *digest, const guint *select, guint n_select,
                          WsDigestCheck check)
{
  WsRun *run = ws_run_new ();
  gint64 origin = G_MAXINT64, end = G_MININT64, session = G_MAXINT64;
  guint kept = 0, n_refused = 0;
  g_autofree char *first_refused = NULL;

  g_return_val_if_fail (digest != NULL, NULL);

  run->prov.kind = g_strdup ("warpscope-digest");
  if (digest->path != NULL)
    g_ptr_array_add (run->prov.files, g_strdup (digest->path));
  run->prov.export_time = g_strdup (digest->created);
  run->digest = ws_digest_ref (digest);
  run->ranks = ws_digest_to_ranks (digest, select, n_select);
  /* One warm-up for the job (docs/NOTES.md, "The warm-up rule"). */
  if (run->ranks != NULL)
    ws_rank_measure_join_warmup (run->ranks->figures);
  for (guint i = 0; i < digest->ranks->len; i++)
    {
      const WsDigestRank *rank = g_ptr_array_index (digest->ranks, i);
      g_autofree char *found = NULL;
      g_autofree char *change = NULL;
      g_autofree char *refused = NULL;

      if (rank->error != NULL)
        {
          if (select == NULL)
            /* TRANSLATORS: an export, then why it could not be digested */
            ws_run_add_warning (run, _ ("%s: not in the digest: %s"), rank->path, rank->error);
          continue;
        }
      if (!selected (rank->rank.rank, select, n_select))
        continue;
      kept++;
      if (run->prov.host == NULL)
        run->prov.host = g_strdup (rank->rank.host);
      origin = MIN (origin, rank->origin + rank->rank.offset);
      end = MAX (end, rank->end_time + rank->rank.offset);
      if (rank->rank.session_start > 0)
        session = MIN (session, rank->rank.session_start);
      if (check == 0)
        continue;
      found = ws_digest_export_find (digest, rank, NULL, &refused);
      change = found != NULL ? ws_digest_loader_check_export (rank, found, check) : NULL;
      if (change != NULL)
        ws_run_add_warning (run, "%s", change);
      if (refused != NULL && n_refused++ == 0)
        first_refused = g_steal_pointer (&refused);
    }
  /* Exports outside the digest's folder: one line for all of them, not
   * one a rank (a digest written away from a job of 512 exports). */
  if (n_refused == 1)
    ws_run_add_warning (run, "%s", first_refused);
  else if (n_refused > 1)
    ws_run_add_warning (run,
                        /* TRANSLATORS: a digest, how many exports, then the first one's line */
                        _ ("%s: %u exports it names lie outside its folder and were not opened; "
                           "keep the digest beside them (the first: %s)"),
                        digest->path != NULL ? digest->path : "", n_refused, first_refused);
  /* One rank alone keeps its own clock: its findings and times read as its export's. */
  if (kept == 1)
    {
      const WsDigestRank *only = ws_digest_find_rank (digest, ws_ranks_get (run->ranks, 0)->rank);

      origin = only->origin;
      end = only->end_time;
    }
  run->origin = kept > 0 ? origin : 0;
  run->end_time = kept > 0 ? end : 0;
  run->prov.session_start_utc_ns = session != G_MAXINT64 ? session : 0;

  for (guint kind = 0; kind < WS_N_SUMMARY_KINDS; kind++)
    {
      gint64 left_out = 0;

      if (select == NULL && digest->job_summaries_known)
        {
          /* Every rank: merged when the digest was written. */
          run->summaries[kind] = digest->job_summaries[kind] != NULL
                                   ? ws_summary_ref (digest->job_summaries[kind])
                                   : NULL;
          left_out = digest->job_rows_left_out[kind];
        }
      else if (digest->rank_summaries_read)
        run->summaries[kind] = ws_digest_merge_summary (digest, kind, select, n_select, &left_out);
      else
        g_warn_if_reached (); /* a choice of ranks needs WS_DIGEST_READ_RANK_SUMMARIES */
      if (left_out > 0)
        ws_run_add_warning (run,
                            _ ("%s: %lld rows of the ranks' %s were too small "
                               "to keep in the digest; the merged summary lacks them"),
                            digest->path != NULL ? digest->path : "digest", (long long) left_out,
                            ws_summary_kind_to_string (kind));
    }
  return run;
}

/**
 * ws_digest_loader_open:
 * @what: WS_DIGEST_READ_RANK_SUMMARIES where the run's ranks are to be
 *   chosen later (ws_digest_loader_run_new() with a selection)
 *
 * Reads a `.wsdigest` file as a run of its ranks (ws_digest_loader_run_new()).
 *
 * Returns: (transfer full): the run, or %NULL with @error set
 */
WsRun *
ws_digest_loader_open (const char *path, WsDigestCheck check, WsDigestRead what,
                       GCancellable *cancellable, GError **error)
{
  g_autoptr (WsDigest) digest = ws_digest_read_file (path, what, cancellable, error);

  if (digest == NULL)
    return NULL;
  if (ws_digest_n_good (digest) == 0)
    {
      g_set_error (error, WS_LOADER_ERROR, WS_LOADER_ERROR_NO_DATA,
                   "%s: a digest in which no export could be read", path);
      return NULL;
    }
  return ws_digest_loader_run_new (digest, NULL, 0, check);
}
