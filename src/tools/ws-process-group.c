/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ws-process-group"
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "ws-process-group.h"

/* Runs in the child between fork and exec: a process group of its own, so
 * that cancelling reaches everything the tool starts (nsys and ncu start
 * the program, which may start more) and nothing else. */
void
ws_process_group_child_setup (gpointer data)
{
  setpgid (0, 0);
}

/* The same, for a command that must not outlive the program: SIGKILL when
 * the thread that started it ends, which for a thread that waits for the
 * command is when the program dies.  @data is the program's pid, to see
 * whether it died before the request was made. */
void
ws_process_group_child_setup_tied (gpointer data)
{
  setpgid (0, 0);
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (getppid () != (pid_t) GPOINTER_TO_INT (data))
    _exit (127);
}

/* Whether any process of the group is still there (zombies included). */
gboolean
ws_process_group_alive (GPid pgid)
{
  if (pgid <= 1)
    return FALSE;
  return kill (-pgid, 0) == 0 || errno == EPERM;
}
