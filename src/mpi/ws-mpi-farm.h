/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Spreading independent tasks over MPI processes: process 0 hands out
 * task numbers in order (the caller orders them: largest first) as
 * processes ask for work, does tasks itself on a thread of its own, and
 * gathers every result as bytes.  Only the main thread of each process
 * calls MPI (MPI_THREAD_FUNNELED); waiting polls with short sleeps rather
 * than spinning, so that the processes leave the cores to the work.
 *
 * A process that stops answering (no heartbeat for @timeout seconds while
 * it holds a task; killed, or its node lost) loses its task to the others;
 * a task lost twice is given up.  Surviving the death of a process needs a
 * launcher that lets the others run on: Slurm's srun does by default,
 * Open MPI's mpirun with --enable-recovery. */

typedef enum
{
  WS_MPI_TAKEN,     /* @process started @task */
  WS_MPI_DONE,      /* @process finished @task; @result holds its bytes */
  WS_MPI_LOST_REDO, /* @process stopped answering during @task: another will do it */
  WS_MPI_LOST,      /* @task was lost twice and is given up; @result is NULL */
} WsMpiEvent;

/* Runs on any process, on a worker thread: task @task's result. */
typedef GBytes *(*WsMpiTaskFunc) (guint task, gpointer data);

/* Runs on process 0's main thread.  @pid is the process's on its host. */
typedef void (*WsMpiEventFunc) (WsMpiEvent event, guint task, int process, gint64 pid,
                                GBytes *result, gpointer data);

gboolean ws_mpi_init (int *argc, char ***argv, GError **error);
int ws_mpi_process (void);
int ws_mpi_size (void);
GBytes *ws_mpi_broadcast (GBytes *bytes);
void ws_mpi_farm (guint n_tasks, double timeout, WsMpiTaskFunc task, WsMpiEventFunc event,
                  gpointer data);
void ws_mpi_finalize (void);

G_END_DECLS
