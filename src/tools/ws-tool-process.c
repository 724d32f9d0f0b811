/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-tool-process"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ws-process-group.h"
#include "ws-tool-process.h"
#include "ws-tool-process.h"
#include "ws-tool-query.h"
#include "ws-tools-error.h"

/* One command of a capture or a report conversion: a child in a process
 * group of its own, its output as lines as they come, and an end that is
 * reported only once nothing of the group is left.  When the command
 * exits, whatever it left running in its group gets SIGTERM and, after
 * the grace period, SIGKILL; terminating it does the same at once.
 *
 * g_spawn rather than GSubprocess: the group is named by the child's pid,
 * which must stay known after the child is reaped, and GSubprocess
 * forgets it (its identifier becomes NULL) as soon as the child exits. */

#define REAP_INTERVAL_MS 50
/* After SIGKILL only zombies that init has not reaped can remain. */
#define GIVE_UP_AFTER_KILL_US (2 * G_USEC_PER_SEC)
/* A process that left the group may hold a pipe open for ever. */
#define DRAIN_MS 2000
/* A command whose input is held (ssh) ends by itself once its input
 * closes: the wrapper on the host ends the remote group, with its own
 * grace period.  Signals here only after that and this much more. */
#define HELD_INPUT_MARGIN_MS 5000

struct _WsToolProcess
{
  GObject parent_instance;

  char **argv;
  char *cwd;
  char **envp;
  char *stdout_path;
  guint grace_ms;
  gboolean tied;
  gboolean hold_stdin;
  int stdin_fd; /* the write end of the held input; -1: none */

  GTask *task;
  GMainContext *context;
  gboolean started;
  GPid pgid;
  GCancellable *io_cancellable;
  gboolean exited;
  int exit_status;
  guint open_streams;
  gboolean group_gone;
  gint64 term_sent;  /* monotonic µs; 0: not yet */
  gint64 term_after; /* monotonic µs: no SIGTERM before; 0: at once */
  gint64 kill_sent;
  GSource *reap_source;
  GSource *drain_source;
};

G_DEFINE_FINAL_TYPE (WsToolProcess, ws_tool_process, G_TYPE_OBJECT)

enum
{
  LINE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
clear_source (GSource **source)
{
  if (*source == NULL)
    return;
  g_source_destroy (*source);
  g_clear_pointer (source, g_source_unref);
}

static void
close_stdin (WsToolProcess *self)
{
  if (self->stdin_fd >= 0)
    close (self->stdin_fd);
  self->stdin_fd = -1;
}

static void
ws_tool_process_dispose (GObject *object)
{
  WsToolProcess *self = WS_TOOL_PROCESS (object);

  close_stdin (self);
  /* Nothing outlives its process object. */
  if (self->started && !self->group_gone && self->pgid > 1)
    kill (-self->pgid, SIGKILL);
  clear_source (&self->reap_source);
  clear_source (&self->drain_source);
  if (self->io_cancellable != NULL)
    g_cancellable_cancel (self->io_cancellable);
  g_clear_object (&self->io_cancellable);
  g_clear_object (&self->task);

  G_OBJECT_CLASS (ws_tool_process_parent_class)->dispose (object);
}

static void
ws_tool_process_finalize (GObject *object)
{
  WsToolProcess *self = WS_TOOL_PROCESS (object);

  g_strfreev (self->argv);
  g_free (self->cwd);
  g_strfreev (self->envp);
  g_free (self->stdout_path);
  g_clear_pointer (&self->context, g_main_context_unref);

  G_OBJECT_CLASS (ws_tool_process_parent_class)->finalize (object);
}

static void
ws_tool_process_class_init (WsToolProcessClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = ws_tool_process_dispose;
  object_class->finalize = ws_tool_process_finalize;

  /**
   * WsToolProcess::line:
   * @is_stderr: whether the line came on standard error
   * @line: the line, valid UTF-8, without its end
   */
  signals[LINE] = g_signal_new ("line", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                NULL, G_TYPE_NONE, 2, G_TYPE_BOOLEAN, G_TYPE_STRING);
}

static void
ws_tool_process_init (WsToolProcess *self)
{
  self->exit_status = -1;
  self->stdin_fd = -1;
}

/**
 * ws_tool_process_new:
 * @stdout_path: (nullable): a file that gets standard output; %NULL to
 *   have it as lines
 * @grace_ms: milliseconds between SIGTERM and SIGKILL
 *
 * Returns: (transfer full): the process, not started
 */
WsToolProcess *
ws_tool_process_new (char **argv, const char *cwd, char **envp, const char *stdout_path,
                     guint grace_ms)
{
  WsToolProcess *self;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  self = g_object_new (WS_TYPE_TOOL_PROCESS, NULL);
  self->argv = g_strdupv (argv);
  self->cwd = g_strdup (cwd);
  self->envp = g_strdupv (envp);
  self->stdout_path = g_strdup (stdout_path);
  self->grace_ms = grace_ms;
  return self;
}

/**
 * ws_tool_process_set_tied:
 *
 * Makes the command die with the program: for a command started by a
 * thread that waits for its end (a report's conversion), so that the
 * thread ends only with the program.  Call before running it.
 */
void
ws_tool_process_set_tied (WsToolProcess *self, gboolean tied)
{
  g_return_if_fail (WS_IS_TOOL_PROCESS (self));
  g_return_if_fail (!self->started);

  self->tied = tied;
}

/**
 * ws_tool_process_set_hold_stdin:
 *
 * Gives the command a pipe as its input, held open until the command
 * ends or is stopped, instead of /dev/null: for ssh, whose wrapper on the
 * host ends the remote process group when that input closes, which is
 * also what happens when this program dies.  Stopping such a command
 * closes its input first and signals it here only if it has not ended
 * a grace period and a margin later.  Call before running it.
 */
void
ws_tool_process_set_hold_stdin (WsToolProcess *self, gboolean hold)
{
  g_return_if_fail (WS_IS_TOOL_PROCESS (self));
  g_return_if_fail (!self->started);

  self->hold_stdin = hold;
}

static void
maybe_done (WsToolProcess *self)
{
  g_autoptr (GTask) task = NULL;

  if (!self->exited || !self->group_gone || self->open_streams > 0 || self->task == NULL)
    return;
  clear_source (&self->reap_source);
  clear_source (&self->drain_source);
  task = g_steal_pointer (&self->task);
  g_task_return_boolean (task, TRUE);
}

static GSource *
add_timeout (WsToolProcess *self, guint ms, GSourceFunc func)
{
  GSource *source = g_timeout_source_new (ms);

  /* No reference: dispose destroys the sources. */
  g_source_set_callback (source, func, self, NULL);
  g_source_attach (source, self->context);
  return source;
}

static gboolean
drain_timeout_cb (gpointer data)
{
  WsToolProcess *self = data;

  g_clear_pointer (&self->drain_source, g_source_unref);
  g_cancellable_cancel (self->io_cancellable);
  return G_SOURCE_REMOVE;
}

/* One look at the group: TRUE once it is gone; otherwise sends SIGTERM,
 * and SIGKILL once the grace period is over. */
static gboolean
group_step (WsToolProcess *self)
{
  gint64 now = g_get_monotonic_time ();

  if (!ws_process_group_alive (self->pgid) ||
      (self->kill_sent != 0 && now - self->kill_sent > GIVE_UP_AFTER_KILL_US))
    return TRUE;
  if (self->term_sent == 0 && self->term_after != 0 && !self->exited && now < self->term_after)
    return FALSE;
  if (self->term_sent == 0)
    {
      kill (-self->pgid, SIGTERM);
      self->term_sent = now;
    }
  else if (self->kill_sent == 0 && now - self->term_sent >= (gint64) self->grace_ms * 1000)
    {
      kill (-self->pgid, SIGKILL);
      self->kill_sent = now;
    }
  return FALSE;
}

static void
group_gone (WsToolProcess *self)
{
  self->group_gone = TRUE;
  if (self->exited && self->open_streams > 0 && self->drain_source == NULL)
    self->drain_source = add_timeout (self, DRAIN_MS, drain_timeout_cb);
  maybe_done (self);
}

static gboolean
reap_cb (gpointer data)
{
  WsToolProcess *self = data;

  if (!group_step (self))
    return G_SOURCE_CONTINUE;
  g_clear_pointer (&self->reap_source, g_source_unref);
  group_gone (self);
  return G_SOURCE_REMOVE;
}

static void
start_reaping (WsToolProcess *self)
{
  if (self->reap_source == NULL && !self->group_gone)
    self->reap_source = add_timeout (self, REAP_INTERVAL_MS, reap_cb);
}

typedef struct
{
  WsToolProcess *process;
  GDataInputStream *stream;
  gboolean is_stderr;
} Reader;

static void
reader_free (Reader *reader)
{
  g_object_unref (reader->process);
  g_object_unref (reader->stream);
  g_free (reader);
}

static void read_next (Reader *reader);

static void
line_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  Reader *reader = data;
  WsToolProcess *self = reader->process;
  gsize len = 0;
  g_autofree char *raw =
    g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (source), result, &len, NULL);

  if (raw == NULL)
    {
      self->open_streams--;
      maybe_done (self);
      reader_free (reader);
      return;
    }
  {
    g_autofree char *line = g_utf8_make_valid (raw, (gssize) len);

    g_signal_emit (self, signals[LINE], 0, reader->is_stderr, line);
  }
  read_next (reader);
}

static void
read_next (Reader *reader)
{
  g_data_input_stream_read_line_async (reader->stream, G_PRIORITY_DEFAULT,
                                       reader->process->io_cancellable, line_cb, reader);
}

static void
start_reader (WsToolProcess *self, GInputStream *pipe, gboolean is_stderr)
{
  Reader *reader = g_new0 (Reader, 1);

  reader->process = g_object_ref (self);
  reader->stream = g_data_input_stream_new (pipe);
  g_object_unref (pipe);
  /* nsys and ncu draw progress with a bare CR: each update is a line. */
  g_data_input_stream_set_newline_type (reader->stream, G_DATA_STREAM_NEWLINE_TYPE_ANY);
  reader->is_stderr = is_stderr;
  self->open_streams++;
  read_next (reader);
}

static void
child_exited_cb (GPid pid, int wait_status, gpointer data)
{
  WsToolProcess *self = data;

  g_spawn_close_pid (pid);
  close_stdin (self);
  self->exited = TRUE;
  self->exit_status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
  /* What the command left running in its group goes now. */
  if (group_step (self))
    {
      clear_source (&self->reap_source);
      group_gone (self);
    }
  else
    start_reaping (self);
}

/**
 * ws_tool_process_run_async:
 *
 * Starts the command; ::line reports its output as it comes.  The run
 * finishes once the command exited, nothing of its process group is left
 * and its output was read to the end.
 */
void
ws_tool_process_run_async (WsToolProcess *self, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSource) watch = NULL;
  int out_file = -1;
  int in_pipe[2] = { -1, -1 };
  int stdout_pipe = -1;
  int stderr_pipe = -1;
  GPid pid = 0;
  gboolean spawned;

  g_return_if_fail (WS_IS_TOOL_PROCESS (self));
  g_return_if_fail (self->task == NULL && !self->started);

  self->task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (self->task, ws_tool_process_run_async);
  self->context = g_main_context_ref_thread_default ();

  if (self->stdout_path != NULL)
    {
      out_file = open (self->stdout_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
      if (out_file < 0)
        {
          int saved = errno;
          g_autoptr (GTask) task = g_steal_pointer (&self->task);

          self->group_gone = TRUE;
          g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s",
                                   self->stdout_path, g_strerror (saved));
          return;
        }
    }
  if (self->hold_stdin && !g_unix_open_pipe (in_pipe, FD_CLOEXEC, &error))
    {
      g_autoptr (GTask) task = g_steal_pointer (&self->task);

      if (out_file >= 0)
        close (out_file);
      self->group_gone = TRUE;
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  spawned = g_spawn_async_with_pipes_and_fds (
    self->cwd, (const char *const *) self->argv, (const char *const *) self->envp,
    G_SPAWN_DO_NOT_REAP_CHILD | (self->hold_stdin ? 0 : G_SPAWN_STDIN_FROM_DEV_NULL),
    self->tied ? ws_process_group_child_setup_tied : ws_process_group_child_setup,
    GINT_TO_POINTER (getpid ()), in_pipe[0], out_file, -1, NULL, NULL, 0, &pid, NULL,
    out_file < 0 ? &stdout_pipe : NULL, &stderr_pipe, &error);
  if (out_file >= 0)
    close (out_file);
  if (in_pipe[0] >= 0)
    close (in_pipe[0]);
  self->stdin_fd = in_pipe[1];
  if (!spawned)
    {
      g_autoptr (GTask) task = g_steal_pointer (&self->task);

      close_stdin (self);
      self->group_gone = TRUE;
      g_task_return_new_error (task, error->domain, error->code, "cannot run %s: %s", self->argv[0],
                               error->message);
      return;
    }
  self->started = TRUE;
  self->pgid = pid;
  self->io_cancellable = g_cancellable_new ();
  if (stdout_pipe >= 0)
    start_reader (self, g_unix_input_stream_new (stdout_pipe, TRUE), FALSE);
  start_reader (self, g_unix_input_stream_new (stderr_pipe, TRUE), TRUE);

  watch = g_child_watch_source_new (pid);
  g_source_set_callback (watch, (GSourceFunc) (void (*) (void)) child_exited_cb,
                         g_object_ref (self), g_object_unref);
  g_source_attach (watch, self->context);
}

/**
 * ws_tool_process_run_finish:
 * @exit_status: (out): the command's exit status; -1 when a signal ended it
 *
 * Returns: %TRUE when the command ran (whatever its exit status); %FALSE
 *   with @error when it could not be started
 */
gboolean
ws_tool_process_run_finish (WsToolProcess *self, GAsyncResult *result, int *exit_status,
                            GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  if (exit_status != NULL)
    *exit_status = self->exit_status;
  return TRUE;
}

/* Cancelling: SIGTERM to the whole group now, SIGKILL after the grace
 * period; the run finishes once nothing of it is left.  A command whose
 * input is held sees its input close first (see
 * ws_tool_process_set_hold_stdin()). */
void
ws_tool_process_terminate (WsToolProcess *self)
{
  g_return_if_fail (WS_IS_TOOL_PROCESS (self));

  if (!self->started || self->group_gone || self->term_sent != 0 || self->term_after != 0)
    return;
  if (self->hold_stdin)
    {
      close_stdin (self);
      self->term_after =
        g_get_monotonic_time () + ((gint64) self->grace_ms + HELD_INPUT_MARGIN_MS) * 1000;
      start_reaping (self);
      return;
    }
  kill (-self->pgid, SIGTERM);
  self->term_sent = g_get_monotonic_time ();
  start_reaping (self);
}

/* For a program about to exit: SIGKILL to the whole group at once. */
void
ws_tool_process_kill (WsToolProcess *self)
{
  g_return_if_fail (WS_IS_TOOL_PROCESS (self));

  close_stdin (self);
  if (!self->started || self->group_gone)
    return;
  kill (-self->pgid, SIGKILL);
  if (self->term_sent == 0)
    self->term_sent = g_get_monotonic_time ();
  self->kill_sent = g_get_monotonic_time ();
  start_reaping (self);
}

typedef struct
{
  GString *out;
  GString *err;
  gboolean done;
  gboolean ran;
  gboolean timed_out;
  int exit_status;
  GError *error;
  GMainContext *context; /* the one the command runs on */
  WsToolProcess *process;
} SyncRun;

static void
sync_line_cb (WsToolProcess *process, gboolean is_stderr, const char *line, gpointer data)
{
  SyncRun *run = data;
  GString *text = is_stderr ? run->err : run->out;

  g_string_append (text, line);
  g_string_append_c (text, '\n');
}

static void
sync_done_cb (GObject *source, GAsyncResult *result, gpointer data)
{
  SyncRun *run = data;

  run->ran =
    ws_tool_process_run_finish (WS_TOOL_PROCESS (source), result, &run->exit_status, &run->error);
  run->done = TRUE;
}

static gboolean
sync_timeout_cb (gpointer data)
{
  WsToolProcess *self = data;
  SyncRun *run = g_object_get_data (G_OBJECT (self), "ws-sync-run");

  run->timed_out = TRUE;
  ws_tool_process_kill (self);
  return G_SOURCE_REMOVE;
}

static gboolean
sync_terminate_cb (gpointer data)
{
  ws_tool_process_terminate (data);
  return G_SOURCE_REMOVE;
}

/* Cancelled, from any thread: the command is stopped on its own context.
 * (Not a GCancellableSource: one whose cancellable fires while attached
 * was never freed, valgrind found.) */
static void
sync_cancelled_cb (GCancellable *cancellable, gpointer data)
{
  SyncRun *run = data;

  g_main_context_invoke (run->context, sync_terminate_cb, run->process);
}

/**
 * ws_tool_process_run_sync:
 * @timeout_s: the command is killed with its group after this long
 * @cancellable: (nullable): stops the command as ws_tool_process_terminate() does
 * @out: (out) (optional): standard output, as valid UTF-8 lines
 * @err: (out) (optional): standard error, likewise
 * @exit_status: (out) (optional): the exit status, -1 for a signal
 *
 * Runs a short command to its end on the calling thread, with a main
 * context of its own: for worker threads.
 *
 * Returns: %TRUE when the command ran and ended in time; %FALSE with
 *   @error set (WS_TOOLS_ERROR_TIMEOUT, G_IO_ERROR_CANCELLED, or why it
 *   could not start)
 */
gboolean
ws_tool_process_run_sync (WsToolProcess *self, guint timeout_s, GCancellable *cancellable,
                          char **out, char **err, int *exit_status, GError **error)
{
  g_autoptr (GMainContext) context = g_main_context_new ();
  g_autoptr (GSource) timeout = NULL;
  gulong cancel_id = 0;
  SyncRun run = {
    g_string_new (NULL), g_string_new (NULL), FALSE, FALSE, FALSE, -1, NULL, NULL, NULL
  };
  gboolean ok;

  g_return_val_if_fail (WS_IS_TOOL_PROCESS (self), FALSE);

  g_main_context_push_thread_default (context);
  g_object_set_data (G_OBJECT (self), "ws-sync-run", &run);
  g_signal_connect (self, "line", G_CALLBACK (sync_line_cb), &run);
  ws_tool_process_run_async (self, sync_done_cb, &run);
  timeout = g_timeout_source_new_seconds (timeout_s);
  g_source_set_callback (timeout, sync_timeout_cb, self, NULL);
  g_source_attach (timeout, context);
  run.context = context;
  run.process = self;
  if (cancellable != NULL)
    cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (sync_cancelled_cb), &run, NULL);
  while (!run.done)
    g_main_context_iteration (context, TRUE);
  g_source_destroy (timeout);
  /* Waits for a handler running on another thread; an invocation it left
   * on the context goes with the context. */
  g_cancellable_disconnect (cancellable, cancel_id);
  g_signal_handlers_disconnect_by_data (self, &run);
  g_object_set_data (G_OBJECT (self), "ws-sync-run", NULL);
  g_main_context_pop_thread_default (context);

  ok = run.ran && !run.timed_out && !g_cancellable_is_cancelled (cancellable);
  if (run.timed_out)
    g_set_error (error, WS_TOOLS_ERROR, WS_TOOLS_ERROR_TIMEOUT, "%s: no answer within %u s",
                 self->argv[0], timeout_s);
  else if (!run.ran)
    g_propagate_error (error, g_steal_pointer (&run.error));
  else if (!ok)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  g_clear_error (&run.error);
  if (ok && out != NULL)
    *out = g_strdup (run.out->str);
  if (ok && err != NULL)
    *err = g_strdup (run.err->str);
  if (ok && exit_status != NULL)
    *exit_status = run.exit_status;
  g_string_free (run.out, TRUE);
  g_string_free (run.err, TRUE);
  return ok;
}

/* Whether a line of a tool's output reads like the cause of a failure. */
gboolean
ws_tool_process_line_is_problem (const char *line)
{
  g_autofree char *lower = g_ascii_strdown (line, -1);

  return g_str_has_prefix (line, "==ERROR==") || strstr (lower, "error") != NULL ||
         strstr (lower, "failed") != NULL || strstr (lower, "unable to") != NULL;
}
