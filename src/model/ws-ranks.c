/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-ranks"
#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "ws-format.h"
#include "ws-ranks.h"

static void
rank_clear (gpointer data)
{
  WsRank *rank = data;

  g_free (rank->file);
  g_free (rank->process);
  g_free (rank->host);
  g_free (rank->job);
  g_free (rank->gpus);
  g_free (rank->how);
}

static void
free_figures (gpointer data)
{
  if (data != NULL)
    ws_rank_figures_unref (data);
}

/**
 * ws_ranks_new:
 *
 * Returns: (transfer full): an empty set of ranks, for the loader to fill
 */
WsRanks *
ws_ranks_new (void)
{
  WsRanks *self = g_new0 (WsRanks, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->ranks = g_array_new (FALSE, TRUE, sizeof (WsRank));
  g_array_set_clear_func (self->ranks, rank_clear);
  self->jobs = g_ptr_array_new_with_free_func (g_free);
  self->notes = g_ptr_array_new_with_free_func (g_free);
  self->figures = g_ptr_array_new_with_free_func (free_figures);
  self->shared_gpus = g_ptr_array_new_with_free_func (g_free);
  self->aligned = TRUE;
  return self;
}

WsRanks *
ws_ranks_ref (WsRanks *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
ws_ranks_unref (WsRanks *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_array_unref (self->ranks);
  g_ptr_array_unref (self->jobs);
  g_ptr_array_unref (self->notes);
  g_ptr_array_unref (self->figures);
  g_ptr_array_unref (self->shared_gpus);
  g_free (self->job_name);
  g_free (self);
}

guint
ws_ranks_get_n (const WsRanks *self)
{
  return self != NULL ? self->ranks->len : 0;
}

/**
 * ws_ranks_get:
 * @index: the place of the rank in the set (ranks are sorted by number)
 *
 * Returns: (transfer none): the rank
 */
const WsRank *
ws_ranks_get (const WsRanks *self, guint index)
{
  g_return_val_if_fail (self != NULL && index < self->ranks->len, NULL);

  return &g_array_index (self->ranks, WsRank, index);
}

/* The index of rank number @rank, or -1. */
gint
ws_ranks_index_of (const WsRanks *self, guint rank)
{
  for (guint i = 0; self != NULL && i < self->ranks->len; i++)
    if (g_array_index (self->ranks, WsRank, i).rank == rank)
      return (gint) i;
  return -1;
}

/* The index of the rank whose process in the run is @pid, or -1. */
gint
ws_ranks_index_of_pid (const WsRanks *self, guint32 pid)
{
  for (guint i = 0; self != NULL && i < self->ranks->len; i++)
    if (g_array_index (self->ranks, WsRank, i).pid == pid)
      return (gint) i;
  return -1;
}

const char *
ws_ranks_source_to_string (WsRankSource source)
{
  switch (source)
    {
      case WS_RANK_BY_NAME:
        return "file-name";
      case WS_RANK_BY_ENVIRONMENT:
        return "environment";
      case WS_RANK_BY_COMMAND:
        return "command-line";
      case WS_RANK_BY_PROCESS:
        return "process";
      case WS_RANK_BY_ORDER:
      default:
        return "order";
    }
}

static int
compare_ranks (gconstpointer a, gconstpointer b)
{
  const WsRank *x = a, *y = b;

  return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

static int
compare_lines (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

static gboolean
distinct (const guint *numbers, const gboolean *found, guint n)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < n; i++)
    if (!found[i] || !g_hash_table_add (seen, GUINT_TO_POINTER (numbers[i] + 1)))
      return FALSE;
  return TRUE;
}

/* The name of the program a command runs: "ddp_probe.py" for "python3
 * /work/ddp_probe.py --steps 3", "app" for "./app". */
static char *
program_name (const char *command)
{
  g_auto (GStrv) argv = NULL;

  static const char *const runners[] = { "python",   "bash",   "sh",      "perl", "ruby", "node",
                                         "torchrun", "mpirun", "mpiexec", "srun", "env" };
  g_autofree char *first = NULL;
  gboolean runner = FALSE;

  if (command == NULL || !g_shell_parse_argv (command, NULL, &argv, NULL))
    return NULL;
  first = g_path_get_basename (argv[0]);
  for (gsize i = 0; i < G_N_ELEMENTS (runners); i++)
    runner = runner || g_str_has_prefix (first, runners[i]);
  if (!runner)
    return g_steal_pointer (&first);
  /* An interpreter or a launcher: the program is its first file. */
  for (guint i = 1; argv[i] != NULL; i++)
    if (argv[i][0] != '-' && (strchr (argv[i], '/') != NULL || strchr (argv[i], '.') != NULL))
      return g_path_get_basename (argv[i]);
  return g_steal_pointer (&first);
}

/**
 * ws_ranks_format_numbers:
 * @numbers: (array length=n): rank numbers, ascending
 *
 * Returns: (transfer full): "0–3", "0, 2, 5", "0–3, 6"
 */
char *
ws_ranks_format_numbers (const guint *numbers, guint n)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n;)
    {
      guint j = i;

      while (j + 1 < n && numbers[j + 1] == numbers[j] + 1)
        j++;
      if (out->len > 0)
        g_string_append (out, ", ");
      if (j >= i + 2)
        g_string_append_printf (out, "%u–%u", numbers[i], numbers[j]);
      else if (j == i + 1)
        g_string_append_printf (out, "%u, %u", numbers[i], numbers[j]);
      else
        g_string_append_printf (out, "%u", numbers[i]);
      i = j + 1;
    }
  return g_string_free (out, FALSE);
}

static void
note_jobs (WsRanks *self)
{
  g_autoptr (GHashTable) jobs = g_hash_table_new (g_str_hash, g_str_equal);
  guint n_unknown = 0;

  for (guint i = 0; i < self->ranks->len; i++)
    {
      const WsRank *rank = &g_array_index (self->ranks, WsRank, i);

      if (rank->job == NULL)
        n_unknown++;
      else if (g_hash_table_add (jobs, rank->job))
        g_ptr_array_add (self->jobs, g_strdup (rank->job));
    }
  if (self->jobs->len > 1)
    {
      g_autofree char *list = NULL;
      g_autoptr (GPtrArray) names = g_ptr_array_new ();

      for (guint i = 0; i < self->jobs->len; i++)
        g_ptr_array_add (names, g_ptr_array_index (self->jobs, i));
      g_ptr_array_add (names, NULL);
      list = g_strjoinv (", ", (char **) names->pdata);
      g_ptr_array_add (self->notes,
                       g_strdup_printf (_ ("These exports come from %u different jobs (%s): "
                                           "their ranks are shown together on one clock"),
                                        self->jobs->len, list));
    }
  else if (self->jobs->len == 1 && n_unknown > 0)
    g_ptr_array_add (self->notes,
                     g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                   "%u export does not say which job it belongs "
                                                   "to; the others belong to %s",
                                                   "%u exports do not say which job they belong "
                                                   "to; the others belong to %s",
                                                   n_unknown),
                                      n_unknown, (const char *) g_ptr_array_index (self->jobs, 0)));
}

static void
note_world_size (WsRanks *self)
{
  for (guint i = 0; i < self->ranks->len; i++)
    {
      const WsRank *rank = &g_array_index (self->ranks, WsRank, i);

      if (rank->world_size > 0 && (guint) rank->world_size != self->ranks->len)
        {
          guint world = (guint) rank->world_size, open = self->ranks->len;

          if (open < world)
            g_ptr_array_add (self->notes,
                             g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                           "The job had %u rank by its "
                                                           "environment and %u are open: the "
                                                           "ranks missing are not counted",
                                                           "The job had %u ranks by its "
                                                           "environment and %u are open: the "
                                                           "ranks missing are not counted",
                                                           world),
                                              world, open));
          else
            g_ptr_array_add (self->notes,
                             g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                           "The job had %u rank by its "
                                                           "environment, yet %u are open: they "
                                                           "do not all come from that job",
                                                           "The job had %u ranks by its "
                                                           "environment, yet %u are open: they "
                                                           "do not all come from that job",
                                                           world),
                                              world, open));
          return;
        }
    }
}

static void
note_alignment (WsRanks *self, const char *unaligned_file)
{
  if (unaligned_file != NULL)
    g_ptr_array_add (self->notes,
                     g_strdup_printf (_ ("%s records no session start: the clocks of the "
                                         "exports are not aligned"),
                                      unaligned_file));
  else if (self->spread > 3600 * G_GINT64_CONSTANT (1000000000))
    {
      double hours = (double) self->spread / 3.6e12;
      /* TRANSLATORS: a number of days or hours */
      g_autofree char *spread = hours >= 48 ? g_strdup_printf (_ ("%.0f days"), hours / 24)
                                            : g_strdup_printf (_ ("%.1f hours"), hours);

      g_ptr_array_add (self->notes,
                       g_strdup_printf (_ ("The exports' sessions started %s apart: they may "
                                           "not come from one run of the job"),
                                        spread));
    }
}

/* A PyTorch profiler trace's own rank (its "distributedInfo"), for
 * every file or none. */
static gboolean
number_by_trace (WsRun *const *probes, guint n, guint *numbers, gboolean *found, GStrv hows)
{
  for (guint i = 0; i < n; i++)
    {
      const WsProvenance *prov = probes != NULL && probes[i] != NULL ? &probes[i]->prov : NULL;

      found[i] = prov != NULL && prov->dist_rank >= 0;
      if (!found[i])
        return FALSE;
      numbers[i] = (guint) prov->dist_rank;
      g_free (hows[i]);
      hows[i] = g_strdup_printf ("distributedInfo rank %d", prov->dist_rank);
    }
  return n > 0 && distinct (numbers, found, n);
}

/* Each file's rank number, and where it was found: by the trace's own
 * rank, the file names, the environment, the command line, or the order
 * given (WS_RANK_BY_ORDER, @numbers left to the caller). */
static WsRankSource
number_files (const char *const *files, WsRun *const *probes, guint n, guint *numbers,
              gboolean *found, GStrv hows)
{
  WsRankSource source;

  if (number_by_trace (probes, n, numbers, found, hows))
    return WS_RANK_BY_ENVIRONMENT;
  for (source = WS_RANK_BY_NAME; source < WS_RANK_BY_ORDER; source++)
    {
      for (guint i = 0; i < n; i++)
        {
          const WsProvenance *prov = probes != NULL && probes[i] != NULL ? &probes[i]->prov : NULL;

          g_clear_pointer (&hows[i], g_free);
          if (source == WS_RANK_BY_NAME)
            found[i] = ws_rank_number_from_name (files[i], &numbers[i], &hows[i]);
          else if (source == WS_RANK_BY_ENVIRONMENT)
            found[i] =
              prov != NULL &&
              (ws_rank_number_from_env (prov->target_env, &numbers[i], &hows[i]) ||
               ws_rank_number_from_thread_name (prov->thread_rank_name, &numbers[i], &hows[i]));
          else
            found[i] = prov != NULL &&
                       ws_rank_number_from_command (prov->target_command, &numbers[i], &hows[i]);
        }
      if (distinct (numbers, found, n))
        break;
    }
  return source;
}

/**
 * ws_ranks_new_for_files:
 * @files: (array length=n): the exports, as given
 * @probes: (array length=n) (nullable): for each, a run that holds at least
 *   its provenance (ws_nsys_reader_probe()), or %NULL where unknown
 *
 * Numbers the ranks of a job opened as one export per rank: by the file
 * names when each carries a distinct number, else by the environment each
 * export records, else by its command line, else in the order given; and
 * places each export's clock on the run's by its session start.
 *
 * Returns: (transfer full): the ranks, sorted by number; their pids are
 * the loader's to set
 */
WsRanks *
ws_ranks_new_for_files (const char *const *files, WsRun *const *probes, guint n)
{
  g_autoptr (WsRanks) self = ws_ranks_new ();
  g_autofree guint *numbers = g_new0 (guint, MAX (n, 1));
  g_autofree gboolean *found = g_new0 (gboolean, MAX (n, 1));
  g_auto (GStrv) hows = g_new0 (char *, n + 1);
  gint64 earliest = G_MAXINT64, latest = G_MININT64;
  const char *unaligned = NULL;
  g_autofree char *folder = NULL;

  g_return_val_if_fail (files != NULL, NULL);

  self->source = number_files (files, probes, n, numbers, found, hows);
  if (self->source == WS_RANK_BY_ORDER)
    for (guint i = 0; i < n; i++)
      {
        numbers[i] = i;
        g_free (hows[i]);
        hows[i] = g_strdup_printf (_ ("file %u"), i + 1);
      }

  for (guint i = 0; i < n; i++)
    {
      const WsProvenance *prov = probes != NULL && probes[i] != NULL ? &probes[i]->prov : NULL;
      WsRank rank = { 0 };

      rank.rank = numbers[i];
      rank.file = g_strdup (files[i]);
      rank.how = g_steal_pointer (&hows[i]);
      if (prov != NULL)
        {
          rank.host = g_strdup (prov->host);
          rank.job = ws_rank_number_job (prov->target_env);
          rank.world_size = ws_rank_number_world_size (prov->target_env);
          if (rank.world_size == 0 && prov->dist_world_size > 0)
            rank.world_size = prov->dist_world_size;
          rank.session_start = prov->session_start_utc_ns;
        }
      if (rank.session_start > 0)
        {
          earliest = MIN (earliest, rank.session_start);
          latest = MAX (latest, rank.session_start);
        }
      else if (unaligned == NULL)
        unaligned = files[i];
      g_array_append_val (self->ranks, rank);
    }
  self->aligned = unaligned == NULL && n > 0;
  if (self->aligned)
    {
      self->spread = latest - earliest;
      for (guint i = 0; i < n; i++)
        {
          WsRank *rank = &g_array_index (self->ranks, WsRank, i);

          rank->offset = rank->session_start - earliest;
        }
    }
  g_array_sort (self->ranks, compare_ranks);

  for (guint i = 0; i < n && self->job_name == NULL; i++)
    if (probes != NULL && probes[i] != NULL)
      self->job_name = program_name (probes[i]->prov.target_command);
  if (self->job_name == NULL && n > 0)
    {
      folder = g_path_get_dirname (files[0]);
      self->job_name = g_path_get_basename (folder);
      if (g_str_equal (self->job_name, ".") || g_str_equal (self->job_name, "/"))
        {
          g_free (self->job_name);
          self->job_name = ws_rank_number_file_stem (files[0]);
        }
    }
  note_jobs (self);
  note_world_size (self);
  note_alignment (self, unaligned);
  return g_steal_pointer (&self);
}

/**
 * ws_ranks_new_for_pids:
 * @run: the export's run, or a probe that holds its provenance (its
 *   processes' names, environment, command line and file)
 * @pids: (array length=n): processes of @run, in any order
 *
 * The ranks of a job whose processes are all in one export, as
 * ws_ranks_new_for_processes() numbers them: in the order of their pids.
 * A digest numbers the processes it digested of one export with it.
 *
 * Returns: (transfer full): the ranks
 */
WsRanks *
ws_ranks_new_for_pids (const WsRun *run, const guint32 *pids, guint n)
{
  g_autoptr (GArray) sorted = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  g_autoptr (WsRanks) self = NULL;
  const char *file;

  g_return_val_if_fail (run != NULL, NULL);
  g_return_val_if_fail (n == 0 || pids != NULL, NULL);

  g_array_append_vals (sorted, pids, n);
  g_array_sort (sorted, compare_u32);
  self = ws_ranks_new ();
  self->source = WS_RANK_BY_PROCESS;
  file = run->prov.files->len > 0 ? g_ptr_array_index (run->prov.files, 0) : "";
  for (guint i = 0; i < sorted->len; i++)
    {
      WsRank rank = { 0 };
      const char *name;

      rank.rank = i;
      rank.pid = rank.file_pid = g_array_index (sorted, guint32, i);
      rank.file = g_strdup (file);
      name = ws_run_process_name (run, rank.pid);
      rank.process = name != NULL ? g_strdup (name) : NULL;
      rank.host = g_strdup (run->prov.host);
      rank.job = ws_rank_number_job (run->prov.target_env);
      rank.how = g_strdup_printf (_ ("pid %u"), rank.pid);
      rank.session_start = run->prov.session_start_utc_ns;
      g_array_append_val (self->ranks, rank);
    }
  self->job_name = program_name (run->prov.target_command);
  if (self->job_name == NULL)
    self->job_name = ws_rank_number_file_stem (file);
  note_jobs (self);
  return g_steal_pointer (&self);
}

/**
 * ws_ranks_new_for_processes:
 *
 * The ranks of a job whose processes are all in one export (MPI or
 * torchrun under one `nsys profile`): each process that ran work on a GPU
 * is a rank, numbered in the order of their pids, as launchers start them
 * (ws_ranks_new_for_pids()).
 *
 * Returns: (transfer full) (nullable): the ranks, or %NULL when fewer than
 * two processes used a GPU
 */
WsRanks *
ws_ranks_new_for_processes (const WsRun *run)
{
  g_autoptr (GHashTable) used = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) pids = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_return_val_if_fail (run != NULL, NULL);

  for (gsize i = 0; i < run->kernels.n && run->kernels.stream != NULL; i++)
    g_hash_table_add (used, GUINT_TO_POINTER (run->kernels.stream[i] + 1));
  for (gsize i = 0; i < run->memops.n && run->memops.stream != NULL; i++)
    g_hash_table_add (used, GUINT_TO_POINTER (run->memops.stream[i] + 1));
  for (guint s = 0; s < run->streams->len; s++)
    {
      guint32 pid = g_array_index (run->streams, WsStream, s).pid;
      gboolean seen = FALSE;

      if (!g_hash_table_contains (used, GUINT_TO_POINTER (s + 1)))
        continue;
      for (guint j = 0; j < pids->len && !seen; j++)
        seen = g_array_index (pids, guint32, j) == pid;
      if (!seen)
        g_array_append_val (pids, pid);
    }
  if (pids->len < 2)
    return NULL;
  return ws_ranks_new_for_pids (run, (const guint32 *) pids->data, pids->len);
}

/**
 * ws_ranks_add_gpu_notes:
 *
 * Says which ranks share a GPU (the same GPU of the same host): their
 * kernels compete for it, so what one rank measures is not what a GPU of
 * its own would give it.  Ranks' `gpus` must be set.
 */
void
ws_ranks_add_gpu_notes (WsRanks *self)
{
  g_autoptr (GHashTable) by_gpu =
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  GHashTableIter iter;
  gpointer key, value;
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  g_return_if_fail (self != NULL);

  for (guint i = 0; i < self->ranks->len; i++)
    {
      const WsRank *rank = &g_array_index (self->ranks, WsRank, i);
      g_auto (GStrv) gpus = NULL;

      if (rank->gpus == NULL)
        continue;
      gpus = g_strsplit (rank->gpus, ";", -1);
      for (guint g = 0; gpus[g] != NULL; g++)
        {
          GArray *ranks = g_hash_table_lookup (by_gpu, gpus[g]);

          if (ranks == NULL)
            {
              ranks = g_array_new (FALSE, FALSE, sizeof (guint));
              g_hash_table_insert (by_gpu, g_strdup (gpus[g]), ranks);
            }
          if (ranks->len == 0 || g_array_index (ranks, guint, ranks->len - 1) != rank->rank)
            g_array_append_val (ranks, rank->rank);
        }
    }
  g_hash_table_iter_init (&iter, by_gpu);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *ranks = value;
      g_autofree char *list = NULL;

      if (ranks->len < 2)
        continue;
      list = ws_ranks_format_numbers ((guint *) ranks->data, ranks->len);
      g_ptr_array_add (lines, g_strdup_printf (_ ("Ranks %s share one GPU (%s): their kernels "
                                                  "compete for it, so each rank's GPU times "
                                                  "are not those of a GPU of its own"),
                                               list, (const char *) key));
    }
  g_ptr_array_sort (lines, compare_lines);
  for (guint i = 0; i < lines->len; i++)
    {
      g_ptr_array_add (self->notes, g_strdup (g_ptr_array_index (lines, i)));
      g_ptr_array_add (self->shared_gpus, g_strdup (g_ptr_array_index (lines, i)));
    }
}

/**
 * ws_ranks_describe:
 *
 * Returns: (transfer full): one line saying how many ranks, how they were
 * numbered and how their clocks were aligned
 */
char *
ws_ranks_describe (const WsRanks *self)
{
  return ws_ranks_describe_clock (self, NULL);
}

/* Whether the ranks were numbered by their traces' distributedInfo. */
static gboolean
by_trace (const WsRanks *self)
{
  const char *how = self->ranks->len > 0 ? g_array_index (self->ranks, WsRank, 0).how : NULL;

  return how != NULL && g_str_has_prefix (how, "distributedInfo");
}

/**
 * ws_ranks_describe_clock:
 * @clock: (nullable): how the clocks were aligned, in words, where a
 *   comparison of the ranks aligned them otherwise than the run (the
 *   collectives' ends); %NULL for the run's own alignment
 *
 * Returns: (transfer full): the line of ws_ranks_describe() with @clock
 */
char *
ws_ranks_describe_clock (const WsRanks *self, const char *clock)
{
  const char *numbered;

  g_return_val_if_fail (self != NULL, NULL);

  switch (self->source)
    {
      case WS_RANK_BY_NAME:
        numbered = _ ("numbered by file name");
        break;
      case WS_RANK_BY_ENVIRONMENT:
        numbered = by_trace (self) ? _ ("numbered by the distributedInfo each trace records")
                                   : _ ("numbered by the environment each export records");
        break;
      case WS_RANK_BY_COMMAND:
        numbered = _ ("numbered by the command line each export records");
        break;
      case WS_RANK_BY_PROCESS:
        numbered = _ ("the processes of one export, numbered by pid");
        break;
      case WS_RANK_BY_ORDER:
      default:
        numbered = _ ("numbered in the order the files were given");
        break;
    }
  if (clock == NULL && self->source == WS_RANK_BY_PROCESS)
    clock = _ ("one clock");
  else if (clock == NULL && self->aligned)
    clock = _ ("clocks aligned on each export's session start (UTC)");
  else if (clock == NULL)
    clock = _ ("clocks not aligned");
  return g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "%u rank, %s; %s", "%u ranks, %s; %s", self->ranks->len),
    self->ranks->len, numbered, clock);
}

/**
 * ws_ranks_title:
 *
 * Returns: (transfer full): "ddp_probe.py — 4 ranks", for window titles
 */
char *
ws_ranks_title (const WsRanks *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->jobs->len > 1)
    return g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE, "%u jobs — %u rank", "%u jobs — %u ranks", self->ranks->len),
      self->jobs->len, self->ranks->len);
  /* TRANSLATORS: a job's name, then how many ranks it has */
  return g_strdup_printf (
    g_dngettext (GETTEXT_PACKAGE, "%s — %u rank", "%s — %u ranks", self->ranks->len),
    self->job_name != NULL ? self->job_name : "", self->ranks->len);
}

/**
 * ws_ranks_select:
 * @pids: (array length=n_pids): processes of the run
 *
 * Returns: (transfer full): the ranks whose process is among @pids, with
 * what is said of the whole set
 */
WsRanks *
ws_ranks_select (const WsRanks *self, const guint32 *pids, guint n_pids)
{
  WsRanks *copy = ws_ranks_new ();

  g_return_val_if_fail (self != NULL, NULL);

  copy->source = self->source;
  copy->aligned = self->aligned;
  copy->spread = self->spread;
  copy->job_name = g_strdup (self->job_name);
  for (guint i = 0; i < self->jobs->len; i++)
    g_ptr_array_add (copy->jobs, g_strdup (g_ptr_array_index (self->jobs, i)));
  for (guint i = 0; i < self->notes->len; i++)
    g_ptr_array_add (copy->notes, g_strdup (g_ptr_array_index (self->notes, i)));
  for (guint i = 0; i < self->shared_gpus->len; i++)
    g_ptr_array_add (copy->shared_gpus, g_strdup (g_ptr_array_index (self->shared_gpus, i)));
  for (guint i = 0; i < self->ranks->len; i++)
    {
      const WsRank *rank = &g_array_index (self->ranks, WsRank, i);
      WsRank dup = *rank;
      gboolean keep = FALSE;

      for (guint p = 0; p < n_pids && !keep; p++)
        keep = pids[p] == rank->pid;
      if (!keep)
        continue;
      dup.file = g_strdup (rank->file);
      dup.process = g_strdup (rank->process);
      dup.host = g_strdup (rank->host);
      dup.job = g_strdup (rank->job);
      dup.gpus = g_strdup (rank->gpus);
      dup.how = g_strdup (rank->how);
      g_array_append_val (copy->ranks, dup);
      if (i < self->figures->len && g_ptr_array_index (self->figures, i) != NULL)
        g_ptr_array_add (copy->figures, ws_rank_figures_ref (g_ptr_array_index (self->figures, i)));
      else
        g_ptr_array_add (copy->figures, NULL);
    }
  return copy;
}
