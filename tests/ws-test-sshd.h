/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A real OpenSSH server for one test, on 127.0.0.1 at a free port, with a
 * host key, a client key and the client's configuration of its own. */
typedef struct
{
  char *dir; /* keys, configurations and logs */
  guint port;
  char *user;        /* the user it lets in: the one running the test */
  char *alias;       /* "wstest": a Host alias in the client configuration */
  char *destination; /* user@127.0.0.1 */
  char *config;      /* the client configuration (ssh -F) */
  char *known_hosts; /* the client's known hosts */
  char *ssh_command; /* "ssh -F CONFIG": for WARPSCOPE_SSH or the setting */
  char *log;         /* sshd's own log */
  char *remote_path; /* PATH of the sessions: the stand-ins first */
  char *home;        /* HOME of the sessions, in dir */
  GPid pid;          /* sshd, 0 when stopped */
  GPid guard;        /* kills sshd and its sessions when the test ends, however */
  int guard_fd;
} WsTestSshd;

WsTestSshd *ws_test_sshd_start (gboolean key_known);
void ws_test_sshd_start_again (WsTestSshd *sshd);
void ws_test_sshd_kill (WsTestSshd *sshd);
void ws_test_sshd_free (WsTestSshd *sshd);
void ws_test_sshd_forget_key (WsTestSshd *sshd);
void ws_test_sshd_change_key (WsTestSshd *sshd);
char *ws_test_sshd_run (WsTestSshd *sshd, const char *remote_command, int *exit_status);
char *ws_test_sshd_processes (WsTestSshd *sshd, const char *marker);
guint ws_test_sshd_sessions (WsTestSshd *sshd);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WsTestSshd, ws_test_sshd_free)

G_END_DECLS
