/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-mpi"
#include "config.h"

#include <gio/gio.h>
#include <mpi.h>
#include <string.h>
#include <unistd.h>

#include "ws-mpi-farm.h"

/* Messages between process 0 and the others. */
enum
{
  TAG_READY = 1, /* → 0: gint64 pid; the process waits for a task */
  TAG_TASK,      /* 0 →: gint32 task, or -1: stop */
  TAG_BEAT,      /* → 0: gint32 task; still working on it */
  TAG_RESULT,    /* → 0: gint32 task then its result's bytes; then waits for a task */
};

/* How often a working process says it is alive, and how long a waiting
 * one sleeps between looks at its messages (µs). */
#define BEAT_INTERVAL_US (G_USEC_PER_SEC / 2)
#define POLL_US 1000

gboolean
ws_mpi_init (int *argc, char ***argv, GError **error)
{
  int provided = MPI_THREAD_SINGLE;

  if (MPI_Init_thread (argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "MPI_Init_thread failed");
      return FALSE;
    }
  /* Errors come back as values, not as an abort of the whole job. */
  MPI_Comm_set_errhandler (MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  return TRUE;
}

int
ws_mpi_process (void)
{
  int rank = 0;

  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  return rank;
}

int
ws_mpi_size (void)
{
  int size = 1;

  MPI_Comm_size (MPI_COMM_WORLD, &size);
  return size;
}

void
ws_mpi_finalize (void)
{
  MPI_Finalize ();
}

/**
 * ws_mpi_broadcast:
 * @bytes: (nullable): process 0's bytes (ignored elsewhere)
 *
 * Returns: (transfer full): process 0's bytes, on every process
 */
GBytes *
ws_mpi_broadcast (GBytes *bytes)
{
  gint64 len = 0;
  guint8 *data;

  if (ws_mpi_process () == 0)
    len = bytes != NULL ? (gint64) g_bytes_get_size (bytes) : 0;
  MPI_Bcast (&len, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  data = g_malloc (MAX (len, 1));
  if (ws_mpi_process () == 0 && len > 0)
    memcpy (data, g_bytes_get_data (bytes, NULL), len);
  /* MPI counts in int: large lists go in pieces. */
  for (gint64 at = 0; at < len; at += G_MAXINT32 / 2)
    MPI_Bcast (data + at, (int) MIN (len - at, G_MAXINT32 / 2), MPI_BYTE, 0, MPI_COMM_WORLD);
  return g_bytes_new_take (data, len);
}

/* A task run on a thread while the main thread keeps talking MPI. */
typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean done;
  guint task;
  WsMpiTaskFunc func;
  gpointer data;
  GBytes *result;
} Work;

static gpointer
work_thread (gpointer data)
{
  Work *work = data;
  GBytes *result = work->func (work->task, work->data);

  g_mutex_lock (&work->lock);
  work->result = result != NULL ? result : g_bytes_new (NULL, 0);
  work->done = TRUE;
  g_cond_signal (&work->cond);
  g_mutex_unlock (&work->lock);
  return NULL;
}

static Work *
work_start (guint task, WsMpiTaskFunc func, gpointer data, GThread **thread)
{
  Work *work = g_new0 (Work, 1);

  g_mutex_init (&work->lock);
  g_cond_init (&work->cond);
  work->task = task;
  work->func = func;
  work->data = data;
  *thread = g_thread_new ("ws-mpi-task", work_thread, work);
  return work;
}

static GBytes *
work_finish (Work *work, GThread *thread)
{
  GBytes *result;

  g_thread_join (thread);
  result = work->result;
  g_mutex_clear (&work->lock);
  g_cond_clear (&work->cond);
  g_free (work);
  return result;
}

/* Waits for a message of @tag from process 0 without spinning. */
static void
receive_slowly (void *buf, int count, MPI_Datatype type, int tag)
{
  MPI_Request request;
  int flag = 0;

  MPI_Irecv (buf, count, type, 0, tag, MPI_COMM_WORLD, &request);
  for (;;)
    {
      MPI_Test (&request, &flag, MPI_STATUS_IGNORE);
      if (flag)
        return;
      g_usleep (POLL_US);
    }
}

static void
worker (WsMpiTaskFunc func, gpointer data)
{
  gint64 pid = getpid ();

  MPI_Send (&pid, 1, MPI_INT64_T, 0, TAG_READY, MPI_COMM_WORLD);
  for (;;)
    {
      gint32 task = -1;
      GThread *thread;
      Work *work;
      g_autoptr (GBytes) result = NULL;
      g_autofree guint8 *message = NULL;
      gsize len;

      receive_slowly (&task, 1, MPI_INT32_T, TAG_TASK);
      if (task < 0)
        return;
      work = work_start ((guint) task, func, data, &thread);
      g_mutex_lock (&work->lock);
      while (!work->done)
        {
          gint64 until = g_get_monotonic_time () + BEAT_INTERVAL_US;

          if (!g_cond_wait_until (&work->cond, &work->lock, until) && !work->done)
            {
              g_mutex_unlock (&work->lock);
              MPI_Send (&task, 1, MPI_INT32_T, 0, TAG_BEAT, MPI_COMM_WORLD);
              g_mutex_lock (&work->lock);
            }
        }
      g_mutex_unlock (&work->lock);
      result = work_finish (work, thread);
      len = g_bytes_get_size (result);
      message = g_malloc (len + 4);
      memcpy (message, &task, 4);
      memcpy (message + 4, g_bytes_get_data (result, NULL), len);
      MPI_Send (message, (int) (len + 4), MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
}

typedef struct
{
  gint task;        /* the task it holds, or -1 */
  gboolean waiting; /* it asked for a task */
  gboolean dead;    /* it stopped answering */
  gint64 last_seen; /* µs, monotonic */
  gint64 pid;       /* on its host, once it said */
} Peer;

typedef struct
{
  guint n_tasks;
  double timeout;
  WsMpiTaskFunc func;
  WsMpiEventFunc event;
  gpointer data;
  GQueue pending;   /* task numbers not handed out, in order */
  guint8 *finished; /* per task */
  guint8 *tries;    /* per task: times it was lost */
  guint n_finished;
  Peer *peers;
  int size;
} Farm;

static void
finish_task (Farm *farm, guint task, int process, GBytes *result)
{
  if (task >= farm->n_tasks || farm->finished[task])
    return;
  farm->finished[task] = TRUE;
  farm->n_finished++;
  farm->event (WS_MPI_DONE, task, process, process > 0 ? farm->peers[process].pid : getpid (),
               result, farm->data);
}

static void
receive_one (Farm *farm, MPI_Status *status)
{
  int process = status->MPI_SOURCE;
  Peer *peer = &farm->peers[process];

  peer->last_seen = g_get_monotonic_time ();
  peer->dead = FALSE;
  switch (status->MPI_TAG)
    {
      case TAG_READY:
        MPI_Recv (&peer->pid, 1, MPI_INT64_T, process, TAG_READY, MPI_COMM_WORLD,
                  MPI_STATUS_IGNORE);
        peer->waiting = TRUE;
        break;
      case TAG_BEAT:
        {
          gint32 task;

          MPI_Recv (&task, 1, MPI_INT32_T, process, TAG_BEAT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        break;
      case TAG_RESULT:
        {
          int count = 0;
          g_autofree guint8 *message = NULL;
          g_autoptr (GBytes) result = NULL;
          gint32 task;

          MPI_Get_count (status, MPI_BYTE, &count);
          message = g_malloc (MAX (count, 4));
          MPI_Recv (message, count, MPI_BYTE, process, TAG_RESULT, MPI_COMM_WORLD,
                    MPI_STATUS_IGNORE);
          if (count < 4)
            break;
          memcpy (&task, message, 4);
          result = g_bytes_new (message + 4, count - 4);
          if (peer->task == task)
            peer->task = -1;
          peer->waiting = TRUE;
          if (task >= 0)
            finish_task (farm, (guint) task, process, result);
        }
        break;
      default:
        MPI_Recv (NULL, 0, MPI_BYTE, process, status->MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
    }
}

/* A process silent for longer than the timeout while holding a task has
 * lost it: another process redoes it, unless it was lost before. */
static void
check_peers (Farm *farm)
{
  gint64 now = g_get_monotonic_time ();

  for (int p = 1; p < farm->size; p++)
    {
      Peer *peer = &farm->peers[p];
      guint task;

      if (peer->dead || (now - peer->last_seen) < farm->timeout * G_USEC_PER_SEC)
        continue;
      if (peer->task < 0 && peer->waiting)
        continue;
      peer->dead = TRUE;
      peer->waiting = FALSE;
      if (peer->task < 0)
        continue;
      task = (guint) peer->task;
      peer->task = -1;
      if (farm->finished[task])
        continue;
      if (++farm->tries[task] < 2)
        {
          g_queue_push_head (&farm->pending, GUINT_TO_POINTER (task));
          farm->event (WS_MPI_LOST_REDO, task, p, peer->pid, NULL, farm->data);
        }
      else
        {
          farm->finished[task] = TRUE;
          farm->n_finished++;
          farm->event (WS_MPI_LOST, task, p, peer->pid, NULL, farm->data);
        }
    }
}

static gboolean
all_stopped (Farm *farm)
{
  for (int p = 1; p < farm->size; p++)
    if (!farm->peers[p].dead && !farm->peers[p].waiting)
      return FALSE;
  return TRUE;
}

static void
coordinator (Farm *farm)
{
  Work *local = NULL;
  GThread *local_thread = NULL;
  gint64 start = g_get_monotonic_time ();

  for (int p = 1; p < farm->size; p++)
    {
      farm->peers[p].task = -1;
      farm->peers[p].last_seen = start;
    }
  /* Until every task is done and every live process is waiting for work
   * (or silent too long), so that each gets its stop. */
  while (farm->n_finished < farm->n_tasks || local != NULL || !all_stopped (farm))
    {
      gboolean busy = FALSE;

      /* Each process by its number, not MPI_ANY_SOURCE: once a process
       * has died, a fault-tolerant MPI (mpirun --enable-recovery) fails
       * every wildcard receive until the failure is acknowledged, which
       * would leave the living ones unheard. */
      for (int p = 1; p < farm->size; p++)
        {
          int flag = 0;
          MPI_Status status;

          if (MPI_Iprobe (p, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status) == MPI_SUCCESS && flag)
            {
              receive_one (farm, &status);
              busy = TRUE;
            }
        }
      for (int p = 1; p < farm->size && !g_queue_is_empty (&farm->pending); p++)
        {
          Peer *peer = &farm->peers[p];
          gint32 task;

          if (!peer->waiting || peer->dead)
            continue;
          task = (gint32) GPOINTER_TO_UINT (g_queue_pop_head (&farm->pending));
          peer->task = task;
          peer->waiting = FALSE;
          peer->last_seen = g_get_monotonic_time ();
          MPI_Send (&task, 1, MPI_INT32_T, p, TAG_TASK, MPI_COMM_WORLD);
          farm->event (WS_MPI_TAKEN, (guint) task, p, peer->pid, NULL, farm->data);
        }
      if (local == NULL && !g_queue_is_empty (&farm->pending))
        {
          guint task = GPOINTER_TO_UINT (g_queue_pop_head (&farm->pending));

          local = work_start (task, farm->func, farm->data, &local_thread);
          farm->event (WS_MPI_TAKEN, task, 0, getpid (), NULL, farm->data);
        }
      if (local != NULL)
        {
          gboolean done;

          g_mutex_lock (&local->lock);
          done = local->done;
          g_mutex_unlock (&local->lock);
          if (done)
            {
              guint task = local->task;
              g_autoptr (GBytes) result = work_finish (local, local_thread);

              local = NULL;
              finish_task (farm, task, 0, result);
              busy = TRUE;
            }
        }
      check_peers (farm);
      if (!busy)
        g_usleep (POLL_US);
    }
  for (int p = 1; p < farm->size; p++)
    if (!farm->peers[p].dead)
      {
        gint32 stop = -1;

        MPI_Send (&stop, 1, MPI_INT32_T, p, TAG_TASK, MPI_COMM_WORLD);
      }
}

/**
 * ws_mpi_farm:
 * @n_tasks: the tasks, numbered 0 to @n_tasks − 1 in the order to hand
 *   them out
 * @timeout: seconds of silence after which a process holding a task is
 *   taken for dead
 * @task: what a task is (any process)
 * @event: what becomes of tasks (process 0 only)
 *
 * Every process calls it; it returns on each once every task is done or
 * given up.
 */
void
ws_mpi_farm (guint n_tasks, double timeout, WsMpiTaskFunc task, WsMpiEventFunc event, gpointer data)
{
  Farm farm = { 0 };

  if (ws_mpi_process () != 0)
    {
      worker (task, data);
      return;
    }
  farm.n_tasks = n_tasks;
  farm.timeout = timeout;
  farm.func = task;
  farm.event = event;
  farm.data = data;
  farm.size = ws_mpi_size ();
  farm.finished = g_new0 (guint8, MAX (n_tasks, 1));
  farm.tries = g_new0 (guint8, MAX (n_tasks, 1));
  farm.peers = g_new0 (Peer, farm.size);
  g_queue_init (&farm.pending);
  for (guint i = 0; i < n_tasks; i++)
    g_queue_push_tail (&farm.pending, GUINT_TO_POINTER (i));
  coordinator (&farm);
  g_queue_clear (&farm.pending);
  g_free (farm.finished);
  g_free (farm.tries);
  g_free (farm.peers);
}
