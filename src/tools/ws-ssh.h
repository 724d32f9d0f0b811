/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The command line of `ssh` itself: WARPSCOPE_SSH, the setting, or "ssh". */
#define WS_SSH_ENV "WARPSCOPE_SSH"

/* What a remote command is: run in WORKDIR on the host, in a process
 * group of its own there, with the ENVS added to its environment. */
typedef struct
{
  const char *cwd;               /* a folder on the host; NULL: the login folder */
  const char *stdout_path;       /* a file on the host for standard output; NULL: streamed */
  const char *const *env;        /* NAME=VALUE pairs added; NULL: none */
  const char *const *argv;       /* the program and its arguments */
  const char *const *stat_paths; /* files whose sizes are reported at the end; NULL: none */
  guint grace_ms;                /* between SIGTERM and SIGKILL there */
  const char *token;             /* marks the wrapper's own lines; see ws_ssh_wrapper_line() */
} WsSshRemoteCommand;

/* What the wrapper said at the end of a remote command. */
typedef struct
{
  gboolean ended;  /* the wrapper reported the command's end */
  int exit_status; /* the command's, as the wrapper saw it (128 + N for signal N) */
  GArray *sizes;   /* of gint64, one per stat path, -1 for a missing file */
} WsSshRemoteEnd;

char *ws_ssh_quote (const char *word);
char *ws_ssh_join (const char *const *argv);
char *ws_ssh_remote_command (const WsSshRemoteCommand *command);
char *ws_ssh_new_token (void);
gboolean ws_ssh_wrapper_line (const char *token, const char *line, WsSshRemoteEnd *end);
void ws_ssh_remote_end_clear (WsSshRemoteEnd *end);

char **ws_ssh_command_argv (const char *configured, GError **error);
char *ws_ssh_problem (const char *host, const char *ssh_stderr, const char *verify_command,
                      int *code);

G_END_DECLS
