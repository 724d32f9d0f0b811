/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-cli"
#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ws-cli.h"
#include "ws-digest-io.h"
#include "ws-digest-loader.h"
#include "ws-format.h"
#if HAVE_MPI && !defined(WS_CLI_LEAN)
#include "ws-mpi-farm.h"
#endif

/* `warpscope-cli digest`: a job's exports digested into one file, with
 * local threads or spread over MPI processes (docs/digest.md). */

typedef struct
{
  char **paths;
  guint threads;
  const char *output;
  GCancellable *cancellable;
  GMainContext *context;
  gboolean show_progress;
  gboolean done; /* atomic */
  WsDigest *digest;
  GError *error;
} ThreadsBuild;

static void
print_progress (double fraction, const char *what, gpointer data)
{
  ws_cli_clear_line ();
  g_printerr ("%s %.0f%%", what, fraction * 100);
}

static gpointer
build_thread (gpointer data)
{
  ThreadsBuild *build = data;

  build->digest = ws_digest_loader_build (
    (const char *const *) build->paths, build->threads, build->output, build->cancellable,
    build->show_progress ? print_progress : NULL, NULL, &build->error);
  g_atomic_int_set (&build->done, TRUE);
  g_main_context_wakeup (build->context);
  return NULL;
}

static gboolean
interrupt_cb (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_CONTINUE;
}

/* The name a digest gets without -o: the job's folder's ("run42.wsdigest"
 * for /scratch/run42/), in the current folder, never beside the exports. */
static char *
default_output (const char *first)
{
  g_autofree char *absolute = g_canonicalize_filename (first, NULL);
  g_autofree char *name = NULL;

  if (g_file_test (absolute, G_FILE_TEST_IS_DIR))
    name = g_path_get_basename (absolute);
  else
    {
      g_autofree char *dir = g_path_get_dirname (absolute);

      name = g_path_get_basename (dir);
    }
  if (g_str_equal (name, "/") || g_str_equal (name, "."))
    return g_strdup ("job.wsdigest");
  return g_strconcat (name, ".wsdigest", NULL);
}

/* Prints the files that could not be digested (standard error) and one
 * line on the digest (standard output); returns the exit status. */
/* What reading an export left out (rows with impossible times, …): once
 * for each export, naming it. */
static void
print_rank_warnings (const WsDigestRank *rank)
{
  for (guint w = 0; w < rank->warnings->len; w++)
    ws_cli_error ("digest", "%s: %s", rank->path,
                  (const char *) g_ptr_array_index (rank->warnings, w));
}

static int
report (const WsDigest *digest, const char *output)
{
  guint good = ws_digest_n_good (digest);
  guint bad = digest->ranks->len - good;
  /* Exports, not ranks: one export of a whole job gives several ranks. */
  g_autoptr (GHashTable) read = g_hash_table_new (g_str_hash, g_str_equal);
  GStatBuf st;
  g_autofree char *size = NULL;
  g_autofree char *per_rank = NULL;

  for (guint i = 0; i < digest->ranks->len; i++)
    {
      const WsDigestRank *rank = g_ptr_array_index (digest->ranks, i);

      if (rank->error != NULL)
        ws_cli_error ("digest", "%s", rank->error);
      else if (g_hash_table_add (read, rank->path))
        print_rank_warnings (rank);
    }
  for (guint i = 0; i < digest->notes->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (digest->notes, i), "MPI"))
      ws_cli_error ("digest", "%s", (const char *) g_ptr_array_index (digest->notes, i));
  if (g_stat (output, &st) != 0)
    st.st_size = 0;
  size = ws_format_bytes ((double) st.st_size);
  per_rank = ws_format_bytes (good > 0 ? (double) st.st_size / good : 0);
  /* TRANSLATORS: the digest, ranks digested, exports found, seconds, how (threads 2, mpi 4
   * processes), its size, its size per rank */
  g_print (_ ("%s: %u of %u exports digested in %.2f s (%s), %s, %s per rank\n"), output,
           g_hash_table_size (read), g_hash_table_size (read) + bad, digest->seconds,
           digest->method, size, per_rank);
  return bad > 0 ? WS_EXIT_FAILED : WS_EXIT_OK;
}

static int
digest_with_threads (char **paths, guint threads, const char *output)
{
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  ThreadsBuild build = { paths,      threads, output, cancellable, g_main_context_default (),
                         isatty (2), FALSE,   NULL,   NULL };
  guint signals[] = {
    g_unix_signal_add (SIGINT, interrupt_cb, cancellable),
    g_unix_signal_add (SIGTERM, interrupt_cb, cancellable),
    g_unix_signal_add (SIGHUP, interrupt_cb, cancellable),
  };
  GThread *thread = g_thread_new ("ws-cli-digest", build_thread, &build);
  g_autoptr (WsDigest) digest = NULL;
  g_autoptr (GError) error = NULL;
  int status;

  while (!g_atomic_int_get (&build.done))
    g_main_context_iteration (build.context, TRUE);
  g_thread_join (thread);
  if (build.show_progress)
    ws_cli_clear_line ();
  digest = build.digest;
  if (digest == NULL)
    {
      status = ws_cli_fail (build.error);
      g_error_free (build.error);
    }
  /* A signal during the write is caught above and does not stop it: the
   * file is renamed into place whole. */
  else if (!ws_digest_write_file (digest, output, &error))
    {
      g_printerr ("warpscope-cli: %s\n", error->message);
      status = WS_EXIT_FAILED;
    }
  else
    status = report (digest, output);
  for (gsize i = 0; i < G_N_ELEMENTS (signals); i++)
    g_source_remove (signals[i]);
  return status;
}

#if HAVE_MPI && !defined(WS_CLI_LEAN)

typedef struct
{
  GPtrArray *paths;
  GPtrArray **results; /* per export: its ranks */
  GPtrArray *notes;
  gboolean verbose;
} MpiJob;

static GPtrArray *
error_rank (const char *path, const char *message)
{
  GPtrArray *ranks = g_ptr_array_new_with_free_func ((GDestroyNotify) ws_digest_rank_free);
  WsDigestRank *rank = ws_digest_rank_new ();

  rank->path = g_canonicalize_filename (path, NULL);
  rank->file = g_strdup (path);
  rank->error = g_strdup_printf ("%s: %s", path, message);
  g_ptr_array_add (ranks, rank);
  return ranks;
}

/* An export's ranks: one, or one per process where it is the job's only
 * export and holds several (ws_digest_loader_digest_file()).  What its
 * reading left out is said here, by the process that read it. */
static GBytes *
mpi_task (guint task, gpointer data)
{
  MpiJob *job = data;
  g_autoptr (GPtrArray) ranks =
    ws_digest_loader_digest_file (g_ptr_array_index (job->paths, task), job->paths->len == 1, NULL);

  if (ranks != NULL && ranks->len > 0)
    print_rank_warnings (g_ptr_array_index (ranks, 0));
  return ranks != NULL ? ws_digest_ranks_to_bytes (ranks, NULL) : NULL;
}

static void
mpi_event (WsMpiEvent event, guint task, int process, gint64 pid, GBytes *result, gpointer data)
{
  MpiJob *job = data;
  const char *path = g_ptr_array_index (job->paths, task);

  switch (event)
    {
      case WS_MPI_TAKEN:
        if (job->verbose)
          g_printerr ("warpscope-cli: digest: process %d (pid %" G_GINT64_FORMAT ") takes %s\n",
                      process, pid, path);
        break;
      case WS_MPI_DONE:
        {
          g_autoptr (GError) error = NULL;
          GPtrArray *ranks = ws_digest_ranks_from_bytes (result, &error);

          if (job->verbose)
            g_printerr ("warpscope-cli: digest: process %d (pid %" G_GINT64_FORMAT
                        ") done with %s\n",
                        process, pid, path);
          job->results[task] = ranks != NULL ? ranks : error_rank (path, error->message);
        }
        break;
      case WS_MPI_LOST_REDO:
        {
          /* TRANSLATORS: an MPI process number, its pid, then an export */
          char *note = g_strdup_printf (_ ("MPI process %d (pid %lld) stopped answering while "
                                           "digesting %s; it goes to another process"),
                                        process, (long long) pid, path);

          ws_cli_error ("digest", "%s", note);
          g_ptr_array_add (job->notes, note);
        }
        break;
      case WS_MPI_LOST:
      default:
        {
          /* TRANSLATORS: an MPI process number, its pid */
          g_autofree char *why =
            g_strdup_printf (_ ("not digested: MPI process %d (pid %lld) stopped answering while "
                                "digesting it, the second process to"),
                             process, (long long) pid);

          job->results[task] = error_rank (path, why);
        }
        break;
    }
}

/* The list of exports, from process 0 to every process: "\1" then the
 * paths, each ending with a NUL; or "\2" then the error. */
static GPtrArray *
share_list (char **paths, GError **error)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GBytes) shared = NULL;
  GPtrArray *list = NULL;
  const char *data;
  gsize len;

  if (ws_mpi_process () == 0)
    {
      g_autoptr (GError) local = NULL;
      g_autoptr (GPtrArray) found = ws_digest_loader_list ((const char *const *) paths, &local);
      g_autoptr (GString) out = g_string_new (NULL);

      if (found == NULL)
        {
          g_string_append_c (out, '\2');
          g_string_append (out, local->message);
        }
      else
        {
          g_string_append_c (out, '\1');
          for (guint i = 0; i < found->len; i++)
            g_string_append_len (out, g_ptr_array_index (found, i),
                                 strlen (g_ptr_array_index (found, i)) + 1);
        }
      bytes = g_string_free_to_bytes (g_steal_pointer (&out));
    }
  shared = ws_mpi_broadcast (bytes);
  data = g_bytes_get_data (shared, &len);
  if (len == 0 || data[0] != '\1')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%.*s", (int) (len > 1 ? len - 1 : 0),
                   len > 1 ? data + 1 : "");
      return NULL;
    }
  list = g_ptr_array_new_with_free_func (g_free);
  for (gsize at = 1; at < len;)
    {
      gsize n = strnlen (data + at, len - at);

      g_ptr_array_add (list, g_strndup (data + at, n));
      at += n + 1;
    }
  return list;
}

static volatile sig_atomic_t interrupted;

static void
note_signal (int signum)
{
  interrupted = signum;
}

static int
digest_with_mpi (int *argc, char ***argv, char **paths, const char *output, double timeout,
                 gboolean verbose)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) list = NULL;
  g_autoptr (GTimer) timer = g_timer_new ();
  g_autoptr (WsDigest) digest = NULL;
  MpiJob job = { 0 };
  struct sigaction catch = { 0 }, old[3];
  const int signums[] = { SIGINT, SIGTERM, SIGHUP };
  int status = WS_EXIT_OK;

  if (!ws_mpi_init (argc, argv, &error))
    {
      ws_cli_error ("digest", "%s", error->message);
      return WS_EXIT_FAILED;
    }
  list = share_list (paths, &error);
  if (list == NULL)
    {
      if (ws_mpi_process () == 0)
        g_printerr ("warpscope-cli: %s\n", error->message);
      ws_mpi_finalize ();
      return WS_EXIT_BAD_INPUT;
    }
  job.paths = list;
  job.results = g_new0 (GPtrArray *, list->len);
  job.notes = g_ptr_array_new_with_free_func (g_free);
  job.verbose = verbose;
  ws_mpi_farm (list->len, timeout, mpi_task, mpi_event, &job);

  if (ws_mpi_process () == 0)
    {
      digest = ws_digest_new ();
      for (guint i = 0; i < list->len; i++)
        if (job.results[i] != NULL)
          {
            g_ptr_array_extend_and_steal (digest->ranks, job.results[i]);
            job.results[i] = NULL;
          }
      digest->method = g_strdup_printf ("mpi %d processes", ws_mpi_size ());
      ws_digest_loader_finish (digest, output);
      for (guint i = 0; i < job.notes->len; i++)
        g_ptr_array_add (digest->notes, g_strdup (g_ptr_array_index (job.notes, i)));
      digest->seconds = g_timer_elapsed (timer, NULL);

      /* A signal during the write waits for it: the file is renamed into
       * place whole, then the signal ends the process. */
      catch.sa_handler = note_signal;
      for (gsize i = 0; i < G_N_ELEMENTS (signums); i++)
        sigaction (signums[i], &catch, &old[i]);
      if (!ws_digest_write_file (digest, output, &error))
        {
          g_printerr ("warpscope-cli: %s\n", error->message);
          status = WS_EXIT_FAILED;
        }
      else
        status = report (digest, output);
      for (gsize i = 0; i < G_N_ELEMENTS (signums); i++)
        sigaction (signums[i], &old[i], NULL);
      if (interrupted)
        raise (interrupted);
    }
  else
    for (guint i = 0; i < list->len; i++)
      g_clear_pointer (&job.results[i], g_ptr_array_unref);
  g_free (job.results);
  g_ptr_array_unref (job.notes);
  ws_mpi_finalize ();
  return status;
}

#endif

int
ws_cli_digest (int argc, char **argv)
{
  g_autofree char *output = NULL;
  gint threads = 0;
  gboolean mpi = FALSE;
  gboolean verbose = FALSE;
  double timeout = 60;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_ ("The digest to write (default: the job folder's name, .wsdigest, in the current "
          "folder)"),
      "JOB.wsdigest" },
    { "threads", 'j', 0, G_OPTION_ARG_INT, &threads,
      N_ ("Exports read at a time without --mpi (default: one per processor)"), "N" },
    { "mpi", 0, 0, G_OPTION_ARG_NONE, &mpi,
      N_ ("Spread the exports over the MPI processes this command runs as (mpirun, srun)"), NULL },
    { "mpi-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &timeout,
      N_ ("Seconds of silence after which an MPI process is taken for dead and its export "
          "digested by another (default 60)"),
      "S" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, N_ ("Say which process takes which export"),
      NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new (_ ("FILES|DIR — a job's exports digested into one small file"));

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (
    context,
    _ ("Reads each export of a job where it lies and writes one SQLite file that the window "
       "opens at once: per rank its file, process, GPUs and clock offset, its figures per step, "
       "its summaries (with what merged medians need), GPU-busy and communication over time, and "
       "its findings. An export that cannot be read becomes a row with its error (exit status "
       "1). With --mpi, run it under mpirun or srun: process 0 hands out the exports, largest "
       "first, as processes finish, and writes the file."));
  if (!ws_cli_parse_outputs (context, &argc, &argv, 1, -1, &output, NULL))
    return WS_EXIT_BAD_INPUT;
  if (threads < 0 || timeout <= 0)
    {
      ws_cli_error ("digest", _ ("--threads and --mpi-timeout must be positive"));
      return WS_EXIT_BAD_INPUT;
    }
  if (output == NULL)
    output = default_output (argv[1]);
  if (!g_str_has_suffix (output, ".wsdigest"))
    {
      ws_cli_error ("digest", _ ("%s: a digest's name ends in .wsdigest"), output);
      return WS_EXIT_BAD_INPUT;
    }
  if (mpi)
    {
#if HAVE_MPI && !defined(WS_CLI_LEAN)
      return digest_with_mpi (&argc, &argv, argv + 1, output, timeout, verbose);
#else
      g_printerr (_ ("warpscope-cli: digest: --mpi: this warpscope-cli was built without MPI "
                     "(install libopenmpi-dev and build with -Dmpi=enabled)\n"));
      return WS_EXIT_BAD_INPUT;
#endif
    }
  return digest_with_threads (argv + 1, (guint) threads, output);
}
